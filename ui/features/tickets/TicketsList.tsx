import { useEffect, useState } from "react";
import { Link } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import type { TicketListRow as Row } from "../../../appliance/modules/tickets/model";
import { listTickets, payLabel } from "./api";
import { LoadFailed } from "../../components/LoadFailed";
import { loadFailure } from "../../lib/api";

/** Spec §2: searchable, CREATED excluded, 10 at a time with load more; DELIVERED last. */
export const PAGE = 10;

export function TicketsList() {
  const [rows, setRows] = useState<Row[]>([]);
  const [term, setTerm] = useState("");
  // Spec §4: lists can exclude CLOSED tickets.
  const [hideClosed, setHideClosed] = useState(false);
  const [more, setMore] = useState(true);
  const [loaded, setLoaded] = useState(false);
  // A failed load keeps the rows shown and says so (issue 25), never "No tickets".
  const [failed, setFailed] = useState<{ offset: number; message: string } | null>(null);
  const load = async (offset: number, t = term) => {
    let page: Row[];
    try {
      page = await listTickets({ limit: PAGE, offset, term: t.trim() || undefined, notState: hideClosed ? ["CLOSED"] : undefined });
    } catch (e) {
      setFailed({ offset, message: loadFailure(e) });
      return;
    }
    setFailed(null);
    setLoaded(true);
    setRows((r) => (offset ? [...r, ...page] : page));
    setMore(page.length === PAGE);
  };
  useEffect(() => {
    const h = setTimeout(() => load(0, term), 250);
    return () => clearTimeout(h);
  }, [term, hideClosed]);
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
      <label className="toggle">
        <input type="checkbox" checked={hideClosed} onChange={(e) => setHideClosed(e.target.checked)} />
        <span>Hide CLOSED tickets</span>
      </label>
      <LoadFailed what="tickets" error={failed?.message} onRetry={() => failed && load(failed.offset)} />
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
                {euroFromEuros(r.total)} <span className="badge">{payLabel(r, euroFromEuros)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {loaded && !failed && rows.length === 0 && <p className="empty">No tickets</p>}
      {more && rows.length > 0 && (
        <button type="button" className="btn" onClick={() => load(rows.length)}>
          Load more
        </button>
      )}
    </div>
  );
}
