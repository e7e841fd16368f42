import { useState } from "react";
import { Link } from "wouter";
import { displayDate, displayDateTime } from "../../../appliance/domain/format";
import { LoadFailed } from "../../components/LoadFailed";
import { toast } from "../../components/toast";
import { useList } from "../../lib/useList";
import { listBookings, settleBooking, type ShopBooking } from "./api";

/** What became of a booking, in the shop's words. */
const STATUS: Record<ShopBooking["status"], string> = {
  received: "Received, not applied yet",
  applied: "On the run",
  moved: "Moved to another day",
  cancelled: "Cancelled",
};

/**
 * The shop's online bookings (issue 35), newest first: each became a pickup ticket on its day
 * (or a later one with room). A manager moves one to another day or cancels it.
 */
export function BookingsScreen() {
  const list = useList(() => listBookings(), "");
  return (
    <div className="stack bookings">
      <p className="muted">Pickups customers booked online. Each is a ticket waiting for pickup on the day shown.</p>
      <LoadFailed what="the bookings" error={list.error} onRetry={() => void list.retry()} />
      {list.items && !list.items.length && !list.error && <p className="muted">No online bookings yet.</p>}
      {list.items?.map((b) => (
        <BookingItem key={b.id} booking={b} onChange={() => void list.retry()} />
      ))}
    </div>
  );
}

function BookingItem({ booking: b, onChange }: { booking: ShopBooking; onChange: () => void }) {
  const [day, setDay] = useState(b.day);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
      toast("Information Saved");
      onChange();
    } catch {
      // The red toast said why (a full day names the next day with room).
    } finally {
      setBusy(false);
    }
  };
  const open = b.ticket_id !== null && b.status !== "cancelled";
  return (
    <section className="card" data-testid="booking" aria-label={`Booking of ${b.customer_name ?? b.phone}`}>
      <header className="row-between">
        <strong>{b.customer_name ?? b.phone}</strong>
        <span className="muted">received {displayDateTime(b.received_at)}</span>
      </header>
      <p>
        Pickup on <strong data-testid="booking-day">{displayDate(b.day)}</strong>
        {b.day !== b.booked_day && <span className="muted"> (booked for {displayDate(b.booked_day)})</span>} · {b.address}
        {b.ticket_id !== null && (
          <>
            {" "}
            · <Link href={`/tickets/${b.ticket_id}`}>ticket #{b.ticket_id}</Link>
          </>
        )}
      </p>
      {b.note && <p className="muted">{b.note}</p>}
      <p className="muted" data-testid="booking-status">
        {STATUS[b.status]}
        {b.reason ? `: ${b.reason}` : ""}
      </p>
      {open && (
        <div className="row-buttons">
          <input type="date" aria-label="Move to" value={day} onChange={(e) => setDay(e.target.value)} />
          <button type="button" className="btn" disabled={busy || !day || day === b.day} onClick={() => void run(() => settleBooking(b.id, { day }))}>
            Move
          </button>
          <input aria-label="Reason" value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} placeholder="Why cancel" />
          <button
            type="button"
            className="btn"
            disabled={busy || !reason.trim()}
            onClick={() => void run(() => settleBooking(b.id, { status: "cancelled", reason: reason.trim() }))}
          >
            Cancel booking
          </button>
        </div>
      )}
    </section>
  );
}
