import { displayDate, euro, euroFromEuros } from "../../../appliance/domain/format";
import { LoadFailed } from "../../components/LoadFailed";
import { parseDiscount, toCents } from "../../../appliance/domain/money";
import { vatSplit } from "../../../appliance/domain/pricing";
import { SwipeRow } from "../../components/SwipeRow";
import { PrintButton, PrinterDialog } from "../printing/PrinterDialog";
import { GarmentPicker } from "./GarmentPicker";
import { ItemEditor } from "./ItemEditor";
import { ItemRow } from "./ItemRow";
import { PhotoPrompt } from "./PhotoPrompt";
import { PickupDeliveryPanel } from "./PickupDelivery";
import { useCounter } from "./useCounter";

/**
 * The counter: /customers/{id}/new-ticket/{ticketID}; ticket 0 resumes or opens one (spec §4).
 * The state and every change live in useCounter; this file only lays the panels out.
 */
export function TicketEdit({ params }: { params: Record<string, string | undefined> }) {
  const customerId = Number(params.id);
  const c = useCounter(customerId, Number(params.ticketID) || 0);
  const { ticket, customer, items, selected } = c;
  if (!ticket) return <p className="muted">Opening the ticket…</p>;
  const split = vatSplit(toCents(ticket.total));
  const discount = parseDiscount(ticket.discount);
  return (
    <div className="counter">
      <section className="card counter-head">
        <div>
          <h2>{customer?.full_name ?? ticket.customer.full_name}</h2>
          <p className="muted">
            {customer?.mobile && <a href={`tel:${customer.mobile}`}>{customer.mobile}</a>} {customer?.address?.line}
          </p>
        </div>
        <div className="ticket-no">
          Ticket #{ticket.id}
          <span className="badge">{ticket.confirmed_at ? ticket.state || "confirmed" : "not confirmed"}</span>
        </div>
      </section>

      <PickupDeliveryPanel ticket={ticket} onDate={c.setDate} onOptions={c.setOptions} />

      <div className="counter-body">
        <LoadFailed what="the garments" error={c.catalogueError} onRetry={() => void c.loadCatalogue()} />
        <GarmentPicker categories={c.categories} onAdd={c.addGarment} />

        <section className="card items-panel">
          <h2>Items</h2>
          {items.length === 0 ? (
            <p className="muted">Tap a garment to add it.</p>
          ) : (
            items.map((i) => (
              <SwipeRow
                key={i.id}
                options={[
                  { label: "Comments", onClick: () => c.editComment(i) },
                  { label: "Print", onClick: () => c.setPrintItem(i.id) },
                  { label: "Delete", danger: true, onClick: () => c.deleteItem(i) },
                ]}
              >
                <ItemRow item={i} selected={i.id === selected?.id} onSelect={() => c.select(i.id === selected?.id ? null : i.id)} />
              </SwipeRow>
            ))
          )}
          <div className="totals" data-testid="totals">
            <span>Subtotal {euro(split.subtotal)}</span>
            <span>VAT 18% {euro(split.vat)}</span>
            <strong data-testid="ticket-total">Total {euroFromEuros(ticket.total)}</strong>
            {discount !== 0 && <span className="badge">{discount}% off</span>}
          </div>
          <PrintButton ticketId={ticket.id} empty={items.length === 0} onPrinted={c.printed} />
          {c.printItem !== null && (
            <PrinterDialog ticketId={ticket.id} empty={false} itemIds={[c.printItem]} onClose={() => c.setPrintItem(null)} onPrinted={c.itemPrinted} />
          )}
          <div className="form-buttons">
            <button type="button" className="btn" onClick={c.setDiscount}>
              Discount
            </button>
            <button type="button" className="btn btn-primary" onClick={c.confirm}>
              Confirm
            </button>
          </div>
        </section>
      </div>

      <section className="card actions-bar" aria-label="Actions">
        {c.actions.map((a) => {
          const on = !!selected?.actions.some((x) => x.actionID === a.id);
          return (
            <button key={a.id} type="button" className={`btn ${on ? "btn-primary" : ""}`} aria-pressed={on} disabled={c.busy} onClick={() => c.toggleAction(a)}>
              {a.name}
            </button>
          );
        })}
      </section>

      {c.photoFor && <PhotoPrompt actionName={c.photoFor.name} onPhoto={c.addWithPhoto} onCancel={c.cancelPhoto} />}
      {selected && (
        <ItemEditor
          key={selected.id}
          item={selected}
          mods={c.modifiers}
          busy={c.busy}
          onToggleModifier={c.toggleModifier}
          onChanged={c.reload}
          onDeleted={c.itemDeleted}
        />
      )}
      {!selected && (
        <section className="card muted" aria-label="Modifiers">
          Select an item to set its pieces, modifiers, quantity, comments and price.
        </section>
      )}
      <p className="muted small">
        Pickup {displayDate(ticket.pickup_date)} · Delivery {displayDate(ticket.delivery_date)}
      </p>
    </div>
  );
}
