import { useState } from "react";
import { useList } from "../../lib/useList";
import { api, fetchList } from "../../lib/api";
import { LoadFailed } from "../../components/LoadFailed";
import { Link, useLocation, useSearch } from "wouter";
import { Field, FormButtons, Section, Toggle, DiscountField, discountValue } from "../../components/form";
import { toast } from "../../components/toast";
import { euroFromEuros } from "../../../appliance/domain/format";
import { MODIFIER_TYPES, type Modifier, listModifiers } from "./api";
import { useHqStaff } from "../../app/access";
import { useRecord } from "../../lib/useRecord";
import { usePickList } from "../../lib/useList";
import { modifierOrder, moveAmong } from "./reorder";
import { Editable, idOf, ImagePicker, SharedDataNote } from "./shared";

/** Spec §9: at most 50 sub-modifiers are shown under a modifier. */
export const MAX_SUB_MODIFIERS = 50;

const swatch = (image: string | null) => (image?.startsWith("color:") ? image.slice(6) : null);
const charge = (m: Modifier) => (m.up_charge ? (m.is_percentage ? `+${m.up_charge}%` : `+${euroFromEuros(m.up_charge)}`) : "");

const siblings = (a: Modifier, b: Modifier) => a.type === b.type && a.parent_id === b.parent_id;

/** Up and down buttons of a row in reorder mode. */
function MoveButtons({ name, onMove, first, last }: { name: string; onMove: (by: -1 | 1) => void; first: boolean; last: boolean }) {
  return (
    <span className="toolbar reorder-buttons">
      <button type="button" className="btn btn-small" aria-label={`Move ${name} up`} onClick={() => onMove(-1)} disabled={first}>
        ↑
      </button>
      <button type="button" className="btn btn-small" aria-label={`Move ${name} down`} onClick={() => onMove(1)} disabled={last}>
        ↓
      </button>
    </span>
  );
}

/**
 * Spec §2 Modifiers, by type. Reorder mode (issue 25; PUT /modifiers/reOrder of spec §8) moves
 * a modifier among its siblings: roots within their type, sub-modifiers within their parent.
 * Turning it off saves the order, as the garments' reorder does.
 */
export function ModifiersList() {
  const loaded = useList(() => fetchList<Modifier>("/modifiers/"));
  const mods = loaded.items ?? [];
  const [open, setOpen] = useState<string | null>(MODIFIER_TYPES[0]);
  const [reorder, setReorder] = useState(false);
  const hq = useHqStaff();
  const move = (m: Modifier, by: -1 | 1) => loaded.setItems(moveAmong(mods, m, by, siblings));
  async function toggleReorder() {
    if (reorder) {
      try {
        await api("PUT", "/modifiers/reOrder", { body: modifierOrder(mods, MODIFIER_TYPES), quiet: true });
        toast("Information Saved");
      } catch {
        toast("Something went wrong", "danger");
        return;
      }
    }
    setReorder(!reorder);
  }
  return (
    <div className="stack">
      {hq ? (
        <div className="toolbar">
          <button type="button" className={`btn ${reorder ? "btn-primary" : ""}`} onClick={toggleReorder} disabled={!loaded.items}>
            {reorder ? "Done reordering" : "Reorder"}
          </button>
          <Link href="/modifiers/0" className="btn btn-primary">
            Add modifier
          </Link>
        </div>
      ) : (
        <SharedDataNote />
      )}
      <LoadFailed what="modifiers" error={loaded.error} onRetry={loaded.retry} />
      {MODIFIER_TYPES.map((type) => {
        const roots = mods.filter((m) => m.type === type && m.parent_id === 0);
        return (
          <section key={type} className="card accordion">
            <button type="button" className="accordion-head" aria-expanded={open === type} onClick={() => setOpen(open === type ? null : type)}>
              <strong>{type}</strong> <span className="badge">{roots.length}</span>
            </button>
            {open === type && (
              <ul className="list" aria-label={`${type} modifiers`}>
                {roots.map((m, i) => {
                  const subs = mods.filter((s) => s.parent_id === m.id);
                  return (
                    <li key={m.id} data-testid="modifier">
                      {reorder ? (
                        <div className="row-link">
                          <span className="row-main">
                            <strong>{m.name}</strong>
                          </span>
                          <MoveButtons name={m.name} onMove={(by) => move(m, by)} first={i === 0} last={i === roots.length - 1} />
                        </div>
                      ) : (
                        <Link href={`/modifiers/${m.id}`} className="row-link">
                          <span className="row-main">
                            <strong>
                              {swatch(m.image) && <span className="swatch" style={{ background: swatch(m.image)! }} />} {m.name}
                            </strong>
                            {subs.length > 0 && <span className="muted">{subs.length} sub-modifiers</span>}
                          </span>
                          <span>
                            {!m.visible && <span className="badge badge-hidden">hidden</span>} <span className="price">{charge(m)}</span>
                          </span>
                        </Link>
                      )}
                      {subs.length > 0 &&
                        (reorder ? (
                          <ul className="reorder-subs" aria-label={`${m.name}: sub-modifiers`}>
                            {subs.map((s, j) => (
                              <li key={s.id} className="row-link">
                                <span>{s.name}</span>
                                <MoveButtons name={s.name} onMove={(by) => move(s, by)} first={j === 0} last={j === subs.length - 1} />
                              </li>
                            ))}
                          </ul>
                        ) : (
                          <div className="chips">
                            {subs.slice(0, MAX_SUB_MODIFIERS).map((s) => (
                              <Link key={s.id} href={`/modifiers/${s.id}`} className="chip">
                                {s.name} {charge(s)}
                              </Link>
                            ))}
                          </div>
                        ))}
                    </li>
                  );
                })}
                {hq && !reorder && (
                  <li>
                    <Link href={`/modifiers/0?type=${type}`} className="row-link muted">
                      + Add {type.toLowerCase()} modifier
                    </Link>
                  </li>
                )}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}

const blank: Modifier = {
  id: 0,
  parent_id: 0,
  type: "COLOR",
  name: "",
  image: null,
  discount: "PERCENTAGE 0",
  visible: true,
  up_charge: 0,
  order: 0,
  is_percentage: false,
};

export function ModifierDetail({ params }: { params: Record<string, string | undefined> }) {
  const id = idOf(params);
  const search = new URLSearchParams(useSearch());
  const [, navigate] = useLocation();
  const startType = (MODIFIER_TYPES as readonly string[]).includes(search.get("type") ?? "") ? (search.get("type") as Modifier["type"]) : "COLOR";
  const { record: m, set, save, remove: removeRecord } = useRecord<Modifier>({ path: "/modifiers/", id, blank: { ...blank, type: startType } });
  const { items: all, failed: allFailed } = usePickList(listModifiers, "the modifiers");
  const isSwatch = m.image?.startsWith("color:") ?? false;
  const remove = async () => (await removeRecord(m.parent_id ? "Modifier Sub Category Removed" : "Modifier Removed")) && navigate("/modifiers");
  const hq = useHqStaff();

  async function submit() {
    if (!m.name.trim()) return toast("Name is required", "warning");
    const body = {
      parent_id: m.parent_id,
      type: m.type,
      name: m.name,
      image: m.image,
      discount: discountValue(m.discount),
      visible: m.visible,
      up_charge: Number(m.up_charge) || 0,
      is_percentage: m.is_percentage,
    };
    const saved = await save(body);
    if (saved) navigate("/modifiers");
  }

  return (
    <Section title={id ? m.name || "Modifier" : "New modifier"}>
      {allFailed}
      <Editable>
        <div className="grid-2">
          <Field label="Name">
            <input name="name" value={m.name} onChange={(e) => set({ name: e.target.value })} />
          </Field>
          <Field label="Type">
            <select name="type" value={m.type} onChange={(e) => set({ type: e.target.value as Modifier["type"], parent_id: 0 })}>
              {MODIFIER_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </Field>
          <Field label="Under">
            <select name="parent_id" value={m.parent_id} onChange={(e) => set({ parent_id: Number(e.target.value) })}>
              <option value={0}>Nothing (a main modifier)</option>
              {all
                .filter((x) => x.parent_id === 0 && x.type === m.type && x.id !== id)
                .map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name}
                  </option>
                ))}
            </select>
          </Field>
          <Field label={m.is_percentage ? "Up-charge (%)" : "Up-charge (€)"}>
            <input name="up_charge" type="number" min={0} step="0.01" value={m.up_charge} onChange={(e) => set({ up_charge: Number(e.target.value) })} />
          </Field>
          <Toggle label="Up-charge is a percentage" checked={m.is_percentage} onChange={(is_percentage) => set({ is_percentage })} />
          <DiscountField value={m.discount} onChange={(discount) => set({ discount })} />
          <Toggle label="Visible" checked={m.visible} onChange={(visible) => set({ visible })} />
          <Toggle label="Colour swatch instead of an image" checked={isSwatch} onChange={(on) => set({ image: on ? "color:#1e3a8a" : null })} />
          {isSwatch ? (
            <Field label="Colour">
              <input
                name="colour"
                type="color"
                value={/^#[0-9a-f]{6}$/i.test(m.image!.slice(6)) ? m.image!.slice(6) : "#000000"}
                onChange={(e) => set({ image: `color:${e.target.value}` })}
              />
            </Field>
          ) : (
            <Field label="Image">
              <ImagePicker value={m.image} onChange={(image) => set({ image })} />
            </Field>
          )}
        </div>
      </Editable>
      {hq && <FormButtons onSave={submit} onDelete={id ? remove : undefined} />}
    </Section>
  );
}
