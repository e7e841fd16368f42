import { Link } from "wouter";
import { useList } from "../../lib/useList";
import { fetchList } from "../../lib/api";
import { LoadFailed } from "../../components/LoadFailed";
import { displayDate } from "../../../appliance/domain/format";
import type { ExpressItem } from "../../../appliance/modules/tickets/model";

/** Spec §2 Express: express items not yet delivered; tapping opens the ticket. */
export function ExpressScreen() {
  const { items: rows, error, retry } = useList(() => fetchList<ExpressItem>("/ticketSubCategory/express/"));
  return (
    <>
      <LoadFailed what="express items" error={error} onRetry={retry} />
      <ul className="list" aria-label="Express items">
        {rows?.length === 0 && <p className="empty">No express items waiting.</p>}
        {rows?.map((r) => (
          <li key={r.id}>
            <Link href={`/tickets/${r.ticket_id}`} className="row-link">
              <span className="row-main">
                <strong>
                  Ticket #{r.ticket_id} · item #{r.id} · {r.description}
                </strong>
                <span className="muted">
                  {r.express} · due {displayDate(r.due_date)} · pickup {displayDate(r.pickup_date)}
                </span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
