import { useState } from "react";
import { useList } from "../../lib/useList";
import { LoadFailed } from "../../components/LoadFailed";
import { Link, useLocation, useSearch } from "wouter";
import { Field, FormButtons, Section, Toggle, DiscountField, discountValue } from "../../components/form";
import { toast } from "../../components/toast";
import { api, fetchList } from "../../lib/api";
import { euroFromEuros } from "../../../appliance/domain/format";
import { CATEGORY_TYPES, type Category, type SubCategory, listActions, listCategories, listPrices } from "./api";
import { useHqStaff } from "../../app/access";
import { useRecord } from "../../lib/useRecord";
import { usePickList } from "../../lib/useList";
import { Editable, idOf, ImagePicker, SharedDataNote } from "./shared";
import { fuzzySearch } from "../../lib/fuzzy";

/** Spec §5: catalogue search matches Name, and for categories their garments' names too. */
const searchCategories = fuzzySearch<Category>((c) => [c.name, ...c.sub_categories.map((s) => s.name)]);
export function GarmentsList() {
  const loaded = useList(() => fetchList<Category>("/garmentCategories/"));
  const cats = loaded.items ?? [];
  const setCats = loaded.setItems;
  const [query, setQuery] = useState("");
  const [reorder, setReorder] = useState(false);
  const hq = useHqStaff();

  function move(i: number, by: number) {
    const j = i + by;
    if (j < 0 || j >= cats.length) return;
    const next = [...cats];
    [next[i], next[j]] = [next[j]!, next[i]!];
    setCats(next);
  }
  /** A garment one place up or down within its category (issue 25). */
  function moveSub(c: Category, i: number, by: number) {
    const j = i + by;
    if (j < 0 || j >= c.sub_categories.length) return;
    const subs = [...c.sub_categories];
    [subs[i], subs[j]] = [subs[j]!, subs[i]!];
    setCats(cats.map((x) => (x.id === c.id ? { ...x, sub_categories: subs } : x)));
  }
  /** Spec §4: turning reorder mode off saves the new order, of the categories and of the garments in each. */
  async function toggleReorder() {
    if (reorder) {
      try {
        await api("PUT", "/garmentCategories/reOrder", { body: cats.map((c) => c.id), quiet: true });
        await api("PUT", "/garmentSubCategories/reOrder", { body: cats.flatMap((c) => c.sub_categories.map((s) => s.id)), quiet: true });
        toast("Information Saved");
      } catch {
        toast("Something went wrong", "danger");
        return;
      }
    }
    setReorder(!reorder);
  }
  const shown = query.trim() && !reorder ? searchCategories(cats, query) : cats;

  return (
    <div className="stack">
      <div className="toolbar">
        <input
          className="search"
          type="search"
          placeholder="Search garments"
          aria-label="Search garments"
          value={query}
          disabled={reorder}
          onChange={(e) => setQuery(e.target.value)}
        />
        {hq && (
          <>
            <button type="button" className={`btn ${reorder ? "btn-primary" : ""}`} onClick={toggleReorder}>
              {reorder ? "Done reordering" : "Reorder"}
            </button>
            <Link href="/garments/0" className="btn btn-primary">
              Add category
            </Link>
          </>
        )}
      </div>
      {!hq && <SharedDataNote />}
      <LoadFailed what="garments" error={loaded.error} onRetry={loaded.retry} />
      {loaded.items && shown.length === 0 && <p className="empty">No garments match</p>}
      <ul className="list" aria-label="Garment categories">
        {shown.map((c, i) => (
          <li key={c.id} className="category-row" data-testid="category">
            <div className="row-link">
              <Link href={`/garments/${c.id}`} className="row-main">
                <strong>{c.name}</strong>
                <span className="muted">
                  {c.type} · {c.sub_categories.length} garments
                </span>
              </Link>
              {reorder ? (
                <span className="toolbar">
                  <button type="button" className="btn btn-small" aria-label={`Move ${c.name} up`} onClick={() => move(i, -1)} disabled={i === 0}>
                    ↑
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    aria-label={`Move ${c.name} down`}
                    onClick={() => move(i, 1)}
                    disabled={i === cats.length - 1}
                  >
                    ↓
                  </button>
                </span>
              ) : (
                !c.visible && <span className="badge badge-hidden">hidden</span>
              )}
            </div>
            {reorder && c.sub_categories.length > 0 && (
              <ul className="reorder-subs" aria-label={`${c.name}: garments`}>
                {c.sub_categories.map((s, j) => (
                  <li key={s.id} className="row-link">
                    <span>{s.name}</span>
                    <span className="toolbar reorder-buttons">
                      <button type="button" className="btn btn-small" aria-label={`Move ${s.name} up`} onClick={() => moveSub(c, j, -1)} disabled={j === 0}>
                        ↑
                      </button>
                      <button
                        type="button"
                        className="btn btn-small"
                        aria-label={`Move ${s.name} down`}
                        onClick={() => moveSub(c, j, 1)}
                        disabled={j === c.sub_categories.length - 1}
                      >
                        ↓
                      </button>
                    </span>
                  </li>
                ))}
              </ul>
            )}
            {!reorder && c.sub_categories.length > 0 && (
              <div className="chips">
                {c.sub_categories.map((s) => (
                  <Link key={s.id} href={`/garmentsSubCategory/${s.id}`} className="chip">
                    {s.name}
                  </Link>
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

const blankCategory: Category = { id: 0, type: "Dry Clean", name: "", visible: true, image: null, order: 0, default_action_id: null, sub_categories: [] };

export function CategoryDetail({ params }: { params: Record<string, string | undefined> }) {
  const id = idOf(params);
  const [, navigate] = useLocation();
  const { record: c, set, setRecord: setC, save, remove: removeRecord } = useRecord<Category>({ path: "/garmentCategories/", id, blank: blankCategory });
  const { items: actions, failed: actionsFailed } = usePickList(listActions, "the actions");
  const remove = async () => (await removeRecord("Garment Removed")) && navigate("/garments");
  const hq = useHqStaff();

  async function submit() {
    if (!c.name.trim()) return toast("Name is required", "warning");
    const body = { type: c.type, name: c.name, visible: c.visible, image: c.image, default_action_id: c.default_action_id };
    const saved = await save(body);
    if (saved) id === 0 ? navigate(`/garments/${saved.id}`, { replace: true }) : setC(saved);
  }

  return (
    <div className="stack">
      {actionsFailed}
      <Section title={id ? c.name || "Category" : "New category"}>
        <Editable>
          <div className="grid-2">
            <Field label="Name">
              <input name="name" value={c.name} onChange={(e) => set({ name: e.target.value })} />
            </Field>
            <Field label="Type">
              <select name="type" value={c.type} onChange={(e) => set({ type: e.target.value as Category["type"] })}>
                {CATEGORY_TYPES.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </Field>
            <Field label="Default action">
              <select name="default_action_id" value={c.default_action_id ?? ""} onChange={(e) => set({ default_action_id: Number(e.target.value) || null })}>
                <option value="">None</option>
                {actions.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </Field>
            <Toggle label="Visible" checked={c.visible} onChange={(visible) => set({ visible })} />
            <Field label="Image">
              <ImagePicker value={c.image} onChange={(image) => set({ image })} />
            </Field>
          </div>
        </Editable>
        {hq && <FormButtons onSave={submit} onDelete={id ? remove : undefined} />}
      </Section>
      {id > 0 && (
        <Section
          title="Garments"
          actions={
            hq && (
              <Link href={`/garmentsSubCategory/0?category=${id}`} className="btn btn-primary btn-small">
                Add garment
              </Link>
            )
          }
        >
          <ul className="list">
            {c.sub_categories.map((s) => (
              <li key={s.id}>
                <Link href={`/garmentsSubCategory/${s.id}`} className="row-link">
                  <span className="row-main">
                    <strong>{s.name}</strong>
                    <span className="muted">{s.pieces ? s.pieces.split(",").join(", ") : "one piece"}</span>
                  </span>
                  {!s.visible && <span className="badge badge-hidden">hidden</span>}
                </Link>
              </li>
            ))}
          </ul>
        </Section>
      )}
    </div>
  );
}

const blankSub: SubCategory = {
  id: 0,
  garment_category_id: 0,
  name: "",
  visible: true,
  image: null,
  discount: "PERCENTAGE 0",
  pieces: "",
  images_required: false,
  show_choose_pieces: false,
  order: 0,
  allow_quantity: false,
};

export function SubCategoryDetail({ params }: { params: Record<string, string | undefined> }) {
  const id = idOf(params);
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const {
    record: s,
    set,
    setRecord: setS,
    save,
    remove: removeRecord,
  } = useRecord<SubCategory>({ path: "/garmentSubCategories/", id, blank: { ...blankSub, garment_category_id: Number(search.get("category")) || 0 } });
  const { items: cats, failed: catsFailed } = usePickList(listCategories, "the garment categories");
  const { items: actions, failed: subActionsFailed } = usePickList(listActions, "the actions");
  const { items: prices, failed: pricesFailed } = usePickList(() => (id ? listPrices({ garment_sub_category_id: id }) : Promise.resolve([])), "the prices", id);
  const hq = useHqStaff();
  const remove = async () =>
    (await removeRecord("Garment Sub Category Removed")) && navigate(s.garment_category_id ? `/garments/${s.garment_category_id}` : "/garments");

  async function submit() {
    if (!s.name.trim()) return toast("Name is required", "warning");
    if (!s.garment_category_id) return toast("Choose a category", "warning");
    const { id: _id, prices: _p, order: _o, ...body } = s;
    const saved = await save({ ...body, discount: discountValue(s.discount) });
    if (saved) id === 0 ? navigate(`/garmentsSubCategory/${saved.id}`, { replace: true }) : setS(saved);
  }

  return (
    <div className="stack">
      {catsFailed}
      {subActionsFailed}
      {pricesFailed}
      <Section title={id ? s.name || "Garment" : "New garment"}>
        <Editable>
          <div className="grid-2">
            <Field label="Name">
              <input name="name" value={s.name} onChange={(e) => set({ name: e.target.value })} />
            </Field>
            <Field label="Category">
              <select name="garment_category_id" value={s.garment_category_id || ""} onChange={(e) => set({ garment_category_id: Number(e.target.value) })}>
                <option value="">Choose</option>
                {cats.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </Field>
            <Field label="Pieces" hint="Comma-separated, e.g. Jacket,Trousers (blank: one piece)">
              <input name="pieces" value={s.pieces} onChange={(e) => set({ pieces: e.target.value })} />
            </Field>
            <DiscountField value={s.discount} onChange={(discount) => set({ discount })} />
            <Toggle label="Visible" checked={s.visible} onChange={(visible) => set({ visible })} />
            <Toggle label="Choose pieces at the counter" checked={s.show_choose_pieces} onChange={(show_choose_pieces) => set({ show_choose_pieces })} />
            <Toggle label="Allow quantity" checked={s.allow_quantity} onChange={(allow_quantity) => set({ allow_quantity })} />
            <Toggle label="Images required" checked={s.images_required} onChange={(images_required) => set({ images_required })} />
            <Field label="Image">
              <ImagePicker value={s.image} onChange={(image) => set({ image })} />
            </Field>
          </div>
        </Editable>
        {hq && <FormButtons onSave={submit} onDelete={id ? remove : undefined} />}
      </Section>
      {id > 0 && (
        <Section title="Prices">
          <ul className="list" aria-label="Prices">
            {actions.map((a) => {
              const p = prices.find((x) => x.action_id === a.id);
              return (
                <li key={a.id}>
                  <Link href={p ? `/actionGarmentSubCategory/${p.id}` : `/actionGarmentSubCategories/0?action=${a.id}&subGarment=${id}`} className="row-link">
                    <span className="row-main">
                      <strong>{a.name}</strong>
                      <span className="muted">{p ? (p.is_percentage_of ? `${p.price}% of another price` : "flat") : "no price yet: tap to add"}</span>
                    </span>
                    <span className="price">{p ? euroFromEuros(p.effective_price) : "—"}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </Section>
      )}
    </div>
  );
}
