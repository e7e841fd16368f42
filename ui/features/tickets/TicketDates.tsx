import type { Ticket } from "../../../appliance/modules/tickets/model";

/**
 * The ticket's pickup and delivery days at the counter. This is the place the scheduling
 * issue's pickup/delivery panel takes: the counter passes it the ticket and a setter (the
 * counter's only other use of the dates is the read-only line at its foot).
 */
export function TicketDates({ ticket, onChange }: { ticket: Ticket; onChange: (which: "pickup" | "delivery", day: string) => void }) {
  return (
    <div className="dates">
      <label>
        Pickup
        <input type="date" aria-label="Pickup date" value={ticket.pickup_date ?? ""} onChange={(e) => onChange("pickup", e.target.value)} />
      </label>
      <label>
        Delivery
        <input type="date" aria-label="Delivery date" value={ticket.delivery_date ?? ""} onChange={(e) => onChange("delivery", e.target.value)} />
      </label>
    </div>
  );
}
