import { useEffect, useMemo, useRef, useState } from "react";
import { useLocation } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import { confirmDialog } from "../../components/dialog";
import { toast } from "../../components/toast";
import { api, ApiError, apiList } from "../../lib/api";
import { uploadImage } from "../../lib/upload";
import type { Action, Category, Modifier } from "../catalogue/api";
import { MODIFIER_TYPES } from "../catalogue/api";
import { withApproval } from "../../components/approval";
import { type Item, type Ticket, getTicket, putItem, putTicket, removeItem, setItemOverride, setTicketDiscount, vat } from "./api";
import { ItemRow } from "./ItemRow";
import { PrintButton, PrinterDialog } from "../printing/PrinterDialog";
import { SwipeRow } from "../../components/SwipeRow";

interface CustomerHead {
  id: number;
  full_name: string;
  mobile: string;
  address: { line: string } | null;
}

/** Spec §5: quantity is saved 1 s after the last change. */
export const QUANTITY_DEBOUNCE_MS = 1000;

/** The counter: /customers/{id}/new-ticket/{ticketID}; ticket 0 resumes or opens one (spec §4). */
export function TicketEdit({ params }: { params: Record<string, string | undefined> }) {
  const customerId = Number(params.id);
  const ticketParam = Number(params.ticketID) || 0;
  const [, navigate] = useLocation();
  const [ticket, setTicket] = useState<Ticket | null>(null);
  /** The item whose labels the printer dialog prints (the phone's swipe option). */
  const [printItem, setPrintItem] = useState<number | null>(null);
  const [customer, setCustomer] = useState<CustomerHead | null>(null);
  const [cats, setCats] = useState<Category[]>([]);
  const [actions, setActions] = useState<Action[]>([]);
  const [mods, setMods] = useState<Modifier[]>([]);
  const [catId, setCatId] = useState<number | null>(null);
  const [search, setSearch] = useState("");
  const [copies, setCopies] = useState(1);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [panelOpen, setPanelOpen] = useState(true);
  // An action that needs a photo waits here for one, or for an explicit "without photo".
  const [photoFor, setPhotoFor] = useState<Action | null>(null);
  // While a change is on its way the action and modifier buttons wait, so a quick second tap
  // cannot land on the previously selected item.
  const [busy, setBusy] = useState(false);
  const busyWhile = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    api<CustomerHead>("GET", `/customers/${customerId}`).then(setCustomer).catch(() => {});
    apiList<Category>("/garmentCategories/").then((c) => {
      setCats(c);
      setCatId(c[0]?.id ?? null);
    });
    apiList<Action>("/actions/").then(setActions);
    apiList<Modifier>("/modifiers/").then(setMods);
  }, [customerId]);

  // Resume the customer's open ticket, or open a new one (404 or 400 mean "none", spec §8).
  useEffect(() => {
    (async () => {
      if (ticketParam) return setTicket(await getTicket(ticketParam));
      let t: Ticket;
      try {
        t = await api<Ticket>("GET", `/tickets/lastnonconfirmed/${customerId}`, { quiet: true });
      } catch (e) {
        if (!(e instanceof ApiError) || (e.status !== 404 && e.status !== 400)) return toast(e instanceof Error ? e.message : "Something went wrong", "danger");
        t = await api<Ticket>("POST", "/tickets/", { body: { customer_id: customerId } });
      }
      setTicket(t);
      navigate(`/customers/${customerId}/new-ticket/${t.id}`, { replace: true });
    })().catch(() => {});
  }, [customerId, ticketParam]);

  const items = ticket?.ticket_sub_categories ?? [];
  const selected = items.find((i) => i.id === selectedId) ?? null;
  const reload = async () => setTicket(await getTicket(ticket!.id));
  const garments = useMemo(() => {
    const q = search.trim().toLowerCase();
    const all = cats.flatMap((c) => c.sub_categories.map((s) => ({ ...s, cat: c.id })));
    return q ? all.filter((g) => g.name.toLowerCase().includes(q)) : all.filter((g) => g.cat === catId);
  }, [cats, catId, search]);

  const addGarment = (garmentId: number) =>
    busyWhile(async () => {
      if (!ticket) return;
      const made = await api<Item[]>("POST", "/ticketSubCategory/", { query: { copies }, body: { ticket_id: ticket.id, garment_sub_category_id: garmentId } }).catch(() => null);
      setCopies(1); // spec §9: the copy count resets to 1 after adding
      if (!made) return;
      setSelectedId(made[made.length - 1]!.id);
      await reload();
    });

  async function toggleAction(a: Action) {
    if (!selected) return toast("Select a garment first", "warning");
    const row = selected.actions.find((x) => x.actionID === a.id);
    if (row) await api("DELETE", "/ticketSubCategoryActions/", { query: { id: row.id } }).catch(() => null);
    else if (a.images_required) return setPhotoFor(a);
    else await api("POST", "/ticketSubCategoryActions/", { body: { ticket_sub_category_id: selected.id, action_id: a.id } }).catch(() => null);
    await reload();
  }

  async function addWithPhoto(file: File | null) {
    const a = photoFor;
    setPhotoFor(null);
    if (!a || !selected) return;
    const img = file ? await uploadImage(file) : null;
    if (file && !img) return;
    await api("POST", "/ticketSubCategoryActions/", { body: { ticket_sub_category_id: selected.id, action_id: a.id, images: img ? [img.id] : [], override_images: !img } }).catch(() => null);
    await reload();
  }

  async function toggleModifier(m: Modifier) {
    if (!selected) return toast("Select a garment first", "warning");
    const row = selected.modifiers.find((x) => x.modifier_id === m.id);
    if (row) await api("DELETE", "/ticketSubCategoryModifier/", { query: { id: row.id } }).catch(() => null);
    else await api("POST", "/ticketSubCategoryModifier/", { body: { ticket_sub_category_id: selected.id, modifier_id: m.id } }).catch(() => null);
    await reload();
  }

  async function editComment(i: Item) {
    const v = window.prompt("Comments", i.comments);
    if (v === null || v === i.comments) return;
    await putItem(i.id, { comments: v }).catch(() => null);
    await reload();
  }
  async function deleteItem(i: Item) {
    if (!(await confirmDialog({ message: `Remove ${i.sub_category?.name ?? "this item"} from the ticket?` }))) return;
    await withApproval(removeItem(i.id));
    if (selectedId === i.id) setSelectedId(null);
    await reload();
  }

  async function setDiscount() {
    if (!ticket) return;
    const v = window.prompt("Ticket discount (%)", String(Number(/\d+/.exec(ticket.discount)?.[0] ?? 0)));
    if (v === null) return;
    const changed = await withApproval(setTicketDiscount(ticket.id, Math.min(100, Math.max(0, Math.round(Number(v) || 0)))));
    if (changed) setTicket(changed);
  }

  async function confirm() {
    if (!ticket || items.length === 0) return toast("Ticket is empty", "warning");
    try {
      await api("PUT", `/tickets/${ticket.id}/confirm`, { quiet: true });
      toast("Ticket confirmed");
      navigate(`/tickets/${ticket.id}`);
    } catch {
      // Spec §8: a failed confirmation returns false silently; the ticket stays open here.
    }
  }

  if (!ticket) return <p className="muted">Opening the ticket…</p>;
  const split = vat(ticket.total);
  return (
    <div className="counter">
      <section className="card counter-head">
        <div>
          <h2>{customer?.full_name ?? ticket.customer.full_name}</h2>
          <p className="muted">
            {customer?.mobile && <a href={`tel:${customer.mobile}`}>{customer.mobile}</a>} {customer?.address?.line}
          </p>
        </div>
        <div className="dates">
          <label>
            Pickup
            <input type="date" aria-label="Pickup date" value={ticket.pickup_date ?? ""} onChange={async (e) => setTicket(await putTicket(`/tickets/${ticket.id}/pickup`, { date: e.target.value }))} />
          </label>
          <label>
            Delivery
            <input type="date" aria-label="Delivery date" value={ticket.delivery_date ?? ""} onChange={async (e) => setTicket(await putTicket(`/tickets/${ticket.id}/delivery`, { date: e.target.value }))} />
          </label>
        </div>
        <div className="ticket-no">
          Ticket #{ticket.id}
          <span className="badge">{ticket.confirmed_at ? ticket.state || "confirmed" : "not confirmed"}</span>
        </div>
      </section>

      <div className="counter-body">
        <section className="card garment-panel">
          <button type="button" className="panel-toggle" aria-expanded={panelOpen} onClick={() => setPanelOpen(!panelOpen)}>
            Garments {panelOpen ? "▾" : "▸"}
          </button>
          {panelOpen && (
            <>
              <div className="toolbar">
                <input className="search" type="search" aria-label="Search garments" placeholder="Search garments" value={search} onChange={(e) => setSearch(e.target.value)} />
                <label className="copies">
                  Copies
                  <input type="number" min={1} max={100} aria-label="Copies" value={copies} onChange={(e) => setCopies(Math.max(1, Math.min(100, Number(e.target.value) || 1)))} />
                </label>
              </div>
              {!search && (
                <div className="tabs" role="tablist">
                  {cats.map((c) => (
                    <button key={c.id} type="button" role="tab" aria-selected={c.id === catId} className={`tab ${c.id === catId ? "tab-on" : ""}`} onClick={() => setCatId(c.id)}>
                      {c.name}
                    </button>
                  ))}
                </div>
              )}
              <div className="garment-grid">
                {garments.map((g) => (
                  <button key={g.id} type="button" className="garment-btn" onClick={() => addGarment(g.id)}>
                    {g.image && <img src={g.image} alt="" />}
                    {g.name}
                  </button>
                ))}
              </div>
            </>
          )}
        </section>

        <section className="card items-panel">
          <h2>Items</h2>
          {items.length === 0 ? (
            <p className="muted">Tap a garment to add it.</p>
          ) : (
            items.map((i) => (
              <SwipeRow
                key={i.id}
                options={[
                  { label: "Comments", onClick: () => editComment(i) },
                  { label: "Print", onClick: () => setPrintItem(i.id) },
                  { label: "Delete", danger: true, onClick: () => deleteItem(i) },
                ]}
              >
                <ItemRow item={i} selected={i.id === selectedId} onSelect={() => setSelectedId(i.id === selectedId ? null : i.id)} />
              </SwipeRow>
            ))
          )}
          <div className="totals" data-testid="totals">
            <span>Subtotal {euroFromEuros(split.subtotal)}</span>
            <span>VAT 18% {euroFromEuros(split.vat)}</span>
            <strong data-testid="ticket-total">Total {euroFromEuros(ticket.total)}</strong>
            {ticket.discount !== "PERCENTAGE 0" && <span className="badge">{ticket.discount.replace("PERCENTAGE ", "")}% off</span>}
          </div>
          {/* Spec §2: printing confirms the ticket, then returns to the customer screen. */}
          <PrintButton ticketId={ticket.id} empty={items.length === 0} onPrinted={() => navigate(`/customers/${customerId}`)} />
          {printItem !== null && <PrinterDialog ticketId={ticket.id} empty={false} itemIds={[printItem]} onClose={() => setPrintItem(null)} onPrinted={() => (setPrintItem(null), void reload())} />}
          <div className="form-buttons">
            <button type="button" className="btn" onClick={setDiscount}>
              Discount
            </button>
            <button type="button" className="btn btn-primary" onClick={confirm}>
              Confirm
            </button>
          </div>
        </section>
      </div>

      <section className="card actions-bar" aria-label="Actions">
        {actions.map((a) => {
          const on = !!selected?.actions.some((x) => x.actionID === a.id);
          return (
            <button key={a.id} type="button" className={`btn ${on ? "btn-primary" : ""}`} aria-pressed={on} disabled={busy} onClick={() => busyWhile(() => toggleAction(a))}>
              {a.name}
            </button>
          );
        })}
      </section>

      {photoFor && (
        <div className="overlay">
          <div className="dialog" role="dialog" aria-modal="true" aria-labelledby="photo-title">
            <h2 id="photo-title">Need to select image!</h2>
            <p>{photoFor.name} needs a photo of the garment before it is added.</p>
            <label className="btn btn-primary">
              Take or choose a photo
              <input type="file" accept="image/*" capture="environment" hidden aria-label="Photo" onChange={(e) => addWithPhoto(e.target.files?.[0] ?? null)} />
            </label>
            <div className="dialog-buttons">
              <button type="button" className="btn" onClick={() => (setPhotoFor(null), toast("Need to select image!", "warning"))}>
                Cancel
              </button>
              <button type="button" className="btn" onClick={() => addWithPhoto(null)}>
                Add without photo
              </button>
            </div>
          </div>
        </div>
      )}
      {selected && <ItemEditor key={selected.id} item={selected} mods={mods} busy={busy} onToggleModifier={(m) => busyWhile(() => toggleModifier(m))} onChanged={reload} onDeleted={() => (setSelectedId(null), reload())} />}
      {!selected && (
        <section className="card muted" aria-label="Modifiers">
          Select an item to set its pieces, modifiers, quantity, comments and price.
        </section>
      )}
      <p className="muted small">Pickup {displayDate(ticket.pickup_date)} · Delivery {displayDate(ticket.delivery_date)}</p>
    </div>
  );
}

function ItemEditor({ item, mods, busy, onToggleModifier, onChanged, onDeleted }: { item: Item; mods: Modifier[]; busy: boolean; onToggleModifier: (m: Modifier) => void; onChanged: () => void; onDeleted: () => void }) {
  const [qty, setQty] = useState(String(item.quantity));
  const [comments, setComments] = useState(item.comments);
  const [override, setOverride] = useState(item.total_override != null ? String(item.total_override) : "");
  const [pay, setPay] = useState("");
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
    const value = v === "" ? null : Math.round(Number(v) * 100) / 100;
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
    await api("POST", `/ticketSubCategory/duplicate/${item.id}/quantity/${n}`).catch(() => null);
    setDup("1");
    onChanged();
  }

  async function remove() {
    if (!(await confirmDialog({ message: `Remove ${item.sub_category?.name ?? "this item"} from the ticket?` }))) return;
    if (await withApproval(removeItem(item.id))) onDeleted();
  }

  async function payNow(full: boolean) {
    const amount = full ? item.balance : Number(pay);
    if (!full && !(amount > 0)) return toast("Enter an amount", "warning");
    await api("PUT", `/ticketSubCategory/paidFor/${item.id}/${amount}`, { query: full ? { full: "true" } : undefined }).catch(() => null);
    setPay("");
    onChanged();
  }

  return (
    <section className="card item-editor" aria-label="Selected item">
      <div className="section-head">
        <h2>{item.sub_category?.name}</h2>
        <span className="price">Paid {euroFromEuros(item.total_paid)} · Due {item.balance <= 0 ? "PAID" : euroFromEuros(item.balance)}</span>
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
        return (
          <div key={type} className="mod-group" aria-label={type}>
            <span className="mod-type">{type}</span>
            {list.map((m) => {
              const on = item.modifiers.some((x) => x.modifier_id === m.id);
              const sw = m.image?.startsWith("color:") ? m.image.slice(6) : null;
              return (
                <button key={m.id} type="button" className={`chip ${on ? "chip-on" : ""}`} aria-pressed={on} disabled={busy} onClick={() => onToggleModifier(m)}>
                  {sw && <span className="swatch" style={{ background: sw }} />} {m.name}
                </button>
              );
            })}
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
          <input aria-label="Comments" value={comments} onChange={(e) => setComments(e.target.value)} onBlur={async () => comments !== item.comments && (await putItem(item.id, { comments }).catch(() => null), onChanged())} />
        </label>
        <label className="field">
          <span>Price override (€)</span>
          <input aria-label="Price override" inputMode="decimal" placeholder={item.total.toFixed(2)} value={override} onChange={(e) => setOverride(e.target.value)} onBlur={saveOverride} onKeyDown={(e) => e.key === "Enter" && saveOverride()} />
        </label>
        <label className="field">
          <span>Take a payment (€)</span>
          <span className="toolbar">
            <input aria-label="Payment amount" inputMode="decimal" value={pay} onChange={(e) => setPay(e.target.value)} />
            <button type="button" className="btn" onClick={() => payNow(false)}>
              Pay
            </button>
            <button type="button" className="btn" onClick={() => payNow(true)}>
              Pay in full
            </button>
          </span>
        </label>
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
