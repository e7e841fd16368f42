import { displayDate } from "../../../appliance/domain/format";
import type { Ticket } from "../../../appliance/modules/tickets/model";

/**
 * Where the van goes for a ticket: the pickup from and delivery to the client, with day,
 * address (spec §3) and comment. A ticket AWAITING PICKUP leads with its pickup address (spec §4).
 * Nothing when the client brings and collects the garments.
 */
export function TicketStops({ ticket }: { ticket: Ticket }) {
  const stops = [
    ticket.pickup_from_client && {
      key: "pickup",
      label: "Pickup from the client",
      date: ticket.pickup_date,
      address: ticket.pickup_address,
      comment: ticket.pickup_comment,
    },
    ticket.delivery_to_client && {
      key: "delivery",
      label: "Delivery to the client",
      date: ticket.delivery_date,
      address: ticket.delivery_address,
      comment: ticket.delivery_comment,
    },
  ].filter((s) => !!s);
  if (!stops.length) return null;
  return (
    <section className="card" aria-label="Pickup and delivery addresses">
      {ticket.state === "AWAITING PICKUP" && (
        <p data-testid="awaiting-pickup-address">
          <strong>Awaiting pickup at</strong> {ticket.pickup_address?.line ?? "no address"}
        </p>
      )}
      {stops.map((s) => (
        <p key={s.key} data-testid={`${s.key}-stop`}>
          {s.label} {displayDate(s.date)}: {s.address?.line ?? "no address"}
          {s.comment && <span className="muted"> · {s.comment}</span>}
        </p>
      ))}
    </section>
  );
}
