import { useList } from "../../lib/useList";
import { fetchList } from "../../lib/api";
import { Link, useLocation } from "wouter";
import { Field, FormButtons, Section, Toggle, DiscountField, discountValue } from "../../components/form";
import { ListView } from "../../components/ListView";
import { toast } from "../../components/toast";
import { euroFromEuros } from "../../../appliance/domain/format";
import { type Action, listActions } from "./api";
import { useHqStaff } from "../../app/access";
import { useRecord } from "../../lib/useRecord";
import { usePickList } from "../../lib/useList";
import { Editable, idOf, ImagePicker, SharedDataNote } from "./shared";
import { fuzzySearch } from "../../lib/fuzzy";

/** Spec §5: actions are searched on their name. */
const searchActions = fuzzySearch<Action>((a) => [a.name]);

export function ActionsList() {
  const loaded = useList(() => fetchList<Action>("/actions/"));
  const actions = loaded.items ?? [];
  const byId = new Map(actions.map((a) => [a.id, a]));
  const hq = useHqStaff();
  return (
    <div className="stack">
      {hq ? (
        <div className="toolbar">
          <Link href="/actions/0" className="btn btn-primary">
            Add action
          </Link>
        </div>
      ) : (
        <SharedDataNote />
      )}
      <ListView
        items={actions}
        keyOf={(a) => a.id}
        placeholder="Search actions"
        empty={loaded.items ? "No action matches" : loaded.error ? "" : "Loading…"}
        error={loaded.error}
        onRetry={loaded.retry}
        what="actions"
        search={searchActions}
        render={(a) => (
          <Link href={`/actions/${a.id}`} className="row-link">
            <span className="row-main">
              <strong>{a.name}</strong>
              <span className="muted">
                {a.is_percentage_of ? `${a.up_charge}% of ${byId.get(a.is_percentage_of)?.name ?? "?"}` : "flat price"}
                {a.images_required ? " · needs images" : ""}
              </span>
            </span>
            <span>
              {!a.visible && <span className="badge badge-hidden">hidden</span>} <span className="price">{euroFromEuros(a.price)}</span>
            </span>
          </Link>
        )}
      />
    </div>
  );
}

const blank: Action = {
  id: 0,
  name: "",
  image: null,
  visible: true,
  is_percentage: false,
  is_percentage_of: null,
  up_charge: 0,
  images_required: false,
  discount: "PERCENTAGE 0",
  price: 0,
};

export function ActionDetail({ params }: { params: Record<string, string | undefined> }) {
  const id = idOf(params);
  const [, navigate] = useLocation();
  const { record: a, set, setRecord: setA, save, remove: removeRecord } = useRecord<Action>({ path: "/actions/", id, blank });
  const { items: all, failed: allFailed } = usePickList(listActions, "the actions");
  const remove = async () => (await removeRecord("Action Removed")) && navigate("/actions");
  const hq = useHqStaff();

  async function submit() {
    if (!a.name.trim()) return toast("Name is required", "warning");
    const body = {
      name: a.name,
      image: a.image,
      visible: a.visible,
      images_required: a.images_required,
      is_percentage: a.is_percentage,
      is_percentage_of: a.is_percentage ? a.is_percentage_of : null,
      up_charge: Number(a.up_charge) || 0,
      discount: discountValue(a.discount),
    };
    const saved = await save(body);
    if (saved) id === 0 ? navigate(`/actions/${saved.id}`, { replace: true }) : setA(saved);
  }

  return (
    <div className="stack">
      {allFailed}
      <Section title={id ? a.name || "Action" : "New action"}>
        <Editable>
          <div className="grid-2">
            <Field label="Name">
              <input name="name" value={a.name} onChange={(e) => set({ name: e.target.value })} />
            </Field>
            <DiscountField value={a.discount} onChange={(discount) => set({ discount })} />
            <Toggle label="Visible" checked={a.visible} onChange={(visible) => set({ visible })} />
            <Toggle label="Images required" checked={a.images_required} onChange={(images_required) => set({ images_required })} />
            <Toggle label="Is percentage of another action" checked={a.is_percentage} onChange={(is_percentage) => set({ is_percentage })} />
            {a.is_percentage && (
              <Field label="Percentage of">
                <select name="is_percentage_of" value={a.is_percentage_of ?? ""} onChange={(e) => set({ is_percentage_of: Number(e.target.value) || null })}>
                  <option value="">Choose an action</option>
                  {all
                    .filter((x) => x.id !== id)
                    .map((x) => (
                      <option key={x.id} value={x.id}>
                        {x.name}
                      </option>
                    ))}
                </select>
              </Field>
            )}
            <Field label={a.is_percentage ? "Up-charge (% of that action)" : "Price (€)"}>
              <input name="up_charge" type="number" min={0} step="0.01" value={a.up_charge} onChange={(e) => set({ up_charge: Number(e.target.value) })} />
            </Field>
            {id > 0 && <p className="muted">Current price: {euroFromEuros(a.price)}</p>}
            <Field label="Image">
              <ImagePicker value={a.image} onChange={(image) => set({ image })} />
            </Field>
          </div>
        </Editable>
        {hq && <FormButtons onSave={submit} onDelete={id ? remove : undefined} />}
      </Section>
    </div>
  );
}
