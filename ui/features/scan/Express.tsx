import { useEffect, useState } from "react";
import { Link } from "wouter";
import { displayDate } from "../../../appliance/domain/format";
import type { ExpressItem } from "../../../appliance/modules/tickets/model";
import { listExpress } from "./api";

/** Spec §2 Express: express items not yet delivered; tapping opens the ticket. */
export function ExpressScreen() {
  const [rows, setRows] = useState<ExpressItem[] | null>(null);
  useEffect(() => void listExpress().then(setRows), []);
  return (
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
  );
}
