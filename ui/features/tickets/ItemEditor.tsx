import { useEffect, useRef, useState } from "react";
import { MODIFIER_TYPES } from "../../../appliance/domain/catalogue";
import { euroFromEuros } from "../../../appliance/domain/format";
import { toEuros, typedCents } from "../../../appliance/domain/money";
import { withApproval } from "../../components/approval";
import { confirmDialog } from "../../components/dialog";
import { toast } from "../../components/toast";
import type { Modifier } from "../../../appliance/modules/catalogue/model";
import type { Item } from "../../../appliance/modules/tickets/model";
import { duplicateItem, payLabel, putItem, removeItem, setItemOverride } from "./api";
import { payItemDialog } from "./PayDialog";

/** Spec §5: quantity is saved 1 s after the last change. */
export const QUANTITY_DEBOUNCE_MS = 1000;

/**
 * The selected item (spec §5): its pieces, modifiers by type, quantity, comments, price
 * override (a manager's approval when below the computed price), payments, duplicates and
 * removal. Each save reloads the ticket through `onChanged`.
 */
export function ItemEditor({
  item,
  mods,
  busy,
  onToggleModifier,
  onChanged,
  onDeleted,
}: {
  item: Item;
  mods: Modifier[];
  busy: boolean;
  onToggleModifier: (m: Modifier) => void;
  onChanged: () => void;
  onDeleted: () => void;
}) {
  const [qty, setQty] = useState(String(item.quantity));
  const [comments, setComments] = useState(item.comments);
  const [override, setOverride] = useState(item.total_override != null ? String(item.total_override) : "");
  const [dup, setDup] = useState("1");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Piece choice is offered for garments that show it (spec §5), from the garment's own list.
  const allPieces = (item.sub_category?.show_choose_pieces ? item.sub_category.pieces : "").split(",").filter(Boolean);

  // Spec §5: a quantity is applied only when it is a number > 0 and changed, 1 s after typing stops.
  function onQty(v: string) {
    setQty(v);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      const n = Number(v);
      if (!Number.isInteger(n) || n <= 0 || n === item.quantity) return;
      await putItem(item.id, { quantity: n }).catch(() => null);
      onChanged();
    }, QUANTITY_DEBOUNCE_MS);
  }
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  async function togglePiece(p: string) {
    const now = item.pieces.split(",").filter(Boolean);
    const next = now.includes(p) ? now.filter((x) => x !== p) : allPieces.filter((x) => x === p || now.includes(x));
    if (next.length === 0) return toast("At least one piece must be selected!", "warning");
    await putItem(item.id, { pieces: next.join(",") }).catch(() => null);
    onChanged();
  }

  // Enter saves, and so does the blur that follows when the approval dialog takes focus: one save at a time.
  const savingOverride = useRef(false);
  async function saveOverride() {
    if (savingOverride.current) return;
    const v = override.trim();
    const value = v === "" ? null : toEuros(typedCents(v));
    if (value !== null && !(value >= 0)) return toast("Enter a price", "warning");
    // Spec §5: applied only when it differs from the computed total.
    if (value === item.total_override || (value !== null && item.total_override == null && value === item.total)) return;
    savingOverride.current = true;
    try {
      if (!(await withApproval(setItemOverride(item.id, value)))) setOverride(item.total_override != null ? String(item.total_override) : "");
    } finally {
      savingOverride.current = false;
    }
    onChanged();
  }

  async function duplicate() {
    const n = Number(dup);
    if (!Number.isInteger(n) || n < 1) return toast("Quantity cannot be less than 1", "warning");
    await duplicateItem(item.id, n).catch(() => null);
    setDup("1");
    onChanged();
  }

  async function remove() {
    if (!(await confirmDialog({ message: `Remove ${item.sub_category?.name ?? "this item"} from the ticket?` }))) return;
    if (await withApproval(removeItem(item.id))) onDeleted();
  }

  // The pay dialog with its tenders (the balance by default, less for a part): no bare "mark paid" (issue 24).
  async function payNow() {
    if (await payItemDialog({ id: item.id, balance: item.balance, ticket_id: item.ticket_id, name: item.sub_category?.name ?? item.description })) onChanged();
  }

  return (
    <section className="card item-editor" aria-label="Selected item">
      <div className="section-head">
        <h2>{item.sub_category?.name}</h2>
        <span className="price">
          Paid {euroFromEuros(item.total_paid)} · Due {payLabel(item, euroFromEuros)}
        </span>
      </div>
      {allPieces.length > 0 && (
        <div className="chips" aria-label="Pieces">
          {allPieces.map((p) => {
            const on = item.pieces.split(",").includes(p);
            return (
              <button key={p} type="button" className={`chip ${on ? "chip-on" : ""}`} aria-pressed={on} onClick={() => togglePiece(p)}>
                {p}
              </button>
            );
          })}
        </div>
      )}
      {MODIFIER_TYPES.map((type) => {
        const list = mods.filter((m) => m.type === type);
        if (!list.length) return null;
        const chip = (m: Modifier) => {
          const on = item.modifiers.some((x) => x.modifier_id === m.id);
          const sw = m.image?.startsWith("color:") ? m.image.slice(6) : null;
          return (
            <button key={m.id} type="button" className={`chip ${on ? "chip-on" : ""}`} aria-pressed={on} disabled={busy} onClick={() => onToggleModifier(m)}>
              {sw && <span className="swatch" style={{ background: sw }} />} {m.name}
            </button>
          );
        };
        return (
          <div key={type} className="mod-group" aria-label={type}>
            <span className="mod-type">{type}</span>
            {modifierFamilies(list).map(({ parent, children }) =>
              children.length === 0 ? (
                chip(parent)
              ) : (
                // Issue 25: sub-modifiers sit under their parent (indented), never flattened among the roots.
                <div key={parent.id} className="mod-family" data-testid="mod-family">
                  {chip(parent)}
                  <fieldset className="mod-subs" aria-label={`${parent.name}: kinds`}>
                    {children.map(chip)}
                  </fieldset>
                </div>
              ),
            )}
          </div>
        );
      })}
      <div className="grid-2">
        {item.sub_category?.allow_quantity && (
          <label className="field">
            <span>Quantity</span>
            <input type="number" min={1} aria-label="Quantity" value={qty} onChange={(e) => onQty(e.target.value)} />
          </label>
        )}
        <label className="field">
          <span>Comments</span>
          <input
            aria-label="Comments"
            value={comments}
            onChange={(e) => setComments(e.target.value)}
            onBlur={async () => comments !== item.comments && (await putItem(item.id, { comments }).catch(() => null), onChanged())}
          />
        </label>
        <label className="field">
          <span>Price override (€)</span>
          <input
            aria-label="Price override"
            inputMode="decimal"
            placeholder={item.total.toFixed(2)}
            value={override}
            onChange={(e) => setOverride(e.target.value)}
            onBlur={saveOverride}
            onKeyDown={(e) => e.key === "Enter" && saveOverride()}
          />
        </label>
        <div className="field">
          <span>Payment</span>
          <button type="button" className="btn" data-testid="pay-item" disabled={item.balance <= 0} onClick={payNow}>
            {item.balance > 0 ? `Pay ${euroFromEuros(item.balance)}` : "PAID"}
          </button>
        </div>
      </div>
      <div className="form-buttons">
        <span className="toolbar">
          <input className="dup" type="number" min={0} aria-label="Duplicate count" value={dup} onChange={(e) => setDup(e.target.value)} />
          <button type="button" className="btn" onClick={duplicate}>
            Duplicate
          </button>
        </span>
        <button type="button" className="btn btn-danger" onClick={remove}>
          Delete item
        </button>
      </div>
    </section>
  );
}

/**
 * A type's modifiers as roots with their sub-modifiers (one level, as the catalogue allows),
 * each in the list's order; a sub-modifier whose parent is not listed stands as a root.
 */
export function modifierFamilies(list: Modifier[]): { parent: Modifier; children: Modifier[] }[] {
  const ids = new Set(list.map((m) => m.id));
  const roots = list.filter((m) => !m.parent_id || !ids.has(m.parent_id));
  return roots.map((parent) => ({ parent, children: list.filter((m) => m.parent_id === parent.id && m.id !== parent.id) }));
}
