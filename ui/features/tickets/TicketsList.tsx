import { useEffect, useState } from "react";
import { Link } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import type { TicketListRow as Row } from "../../../appliance/modules/tickets/model";
import { listTickets, payLabel } from "./api";

/** Spec §2: searchable, CREATED excluded, 10 at a time with load more; DELIVERED last. */
export const PAGE = 10;

export function TicketsList() {
  const [rows, setRows] = useState<Row[]>([]);
  const [term, setTerm] = useState("");
  const [more, setMore] = useState(true);
  const load = async (offset: number, t = term) => {
    const page = await listTickets({ limit: PAGE, offset, term: t.trim() || undefined });
    setRows((r) => (offset ? [...r, ...page] : page));
    setMore(page.length === PAGE);
  };
  useEffect(() => {
    const h = setTimeout(() => load(0, term), 250);
    return () => clearTimeout(h);
  }, [term]);
  return (
    <div className="stack">
      <input
        className="search"
        type="search"
        aria-label="Search tickets"
        placeholder="Ticket number, customer name or phone"
        value={term}
        onChange={(e) => setTerm(e.target.value)}
      />
      <ul className="list" aria-label="Tickets">
        {rows.map((r) => (
          <li key={r.id}>
            <Link href={`/tickets/${r.id}`} className="row-link">
              <span className="row-main">
                <strong>
                  #{r.id} {r.customer.full_name}
                </strong>
                <span className="muted">
                  {r.state || "(none)"} · pickup {displayDate(r.pickup_date)} · delivery {displayDate(r.delivery_date)}
                </span>
              </span>
              <span className="price">
                {euroFromEuros(r.total)} <span className="badge">{payLabel(r.balance, euroFromEuros)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {rows.length === 0 && <p className="empty">No tickets</p>}
      {more && rows.length > 0 && (
        <button type="button" className="btn" onClick={() => load(rows.length)}>
          Load more
        </button>
      )}
    </div>
  );
}
