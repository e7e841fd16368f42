import { useEffect, useState } from "react";
import { Link } from "wouter";
import { displayDate } from "../../../appliance/domain/format";
import { apiList } from "../../lib/api";

interface Express {
  id: number;
  ticket_id: number;
  description: string;
  pickup_date: string | null;
  express: string;
  due_date: string | null;
}

/** Spec §2 Express: express items not yet delivered; tapping opens the ticket. */
export function ExpressScreen() {
  const [rows, setRows] = useState<Express[] | null>(null);
  useEffect(() => void apiList<Express>("/ticketSubCategory/express/").then(setRows), []);
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
