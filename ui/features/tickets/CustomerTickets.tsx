import { useEffect, useState } from "react";
import { Link } from "wouter";
import { displayDate, euroFromEuros } from "../../../appliance/domain/format";
import { toast } from "../../components/toast";
import type { CustomerTicket as Row } from "../../../appliance/modules/customers/model";
import type { TicketLog } from "../../../appliance/modules/tickets/model";
import { listCustomerTickets, listTicketLogs, listTicketStates, payLabel, setTicketsState } from "./api";
import { payDialog } from "./PayDialog";
import { Payments } from "./Payments";
import { HistoryTable } from "./History";
import { LoadFailed } from "../../components/LoadFailed";
import { loadFailure } from "../../lib/api";
import { useList } from "../../lib/useList";
import { useTicketLocations } from "../scan/Where";

/** Spec §2 Customers detail: the last 10 tickets (See All shows every one). */
export const LAST_TICKETS = 10;

/**
 * A customer's tickets: id, state selector, agent, pickup date, delivery date or N/A, total,
 * edit link, history dialog, a pay button (PAID or the balance), and a ticket's payments and
 * refunds (issue 24: the ticket view's list, with its Refund buttons) under its row.
 */
export function CustomerTickets({ customerId }: { customerId: number }) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [all, setAll] = useState(false);
  const states = useList(listTicketStates);
  const [history, setHistory] = useState<{ id: number; logs: TicketLog[] } | null>(null);
  const [paymentsOf, setPaymentsOf] = useState<number | null>(null);
  // A failed load keeps what was shown and says so, never "No tickets yet" (issue 25).
  const load = () =>
    listCustomerTickets(customerId).then(
      (r) => (setRows(r), setFailed(null)),
      (e) => setFailed(loadFailure(e)),
    );
  useEffect(() => {
    load();
  }, [customerId]);

  async function setState(id: number, state: string) {
    const r = await setTicketsState([id], state).catch(() => null);
    if (r?.success) await load();
  }
  async function pay(r: Row) {
    if (await payDialog(r)) {
      toast("Information Saved");
      await load();
    }
  }
  async function showHistory(id: number) {
    // A history that cannot be fetched says so (quiet fetch): an empty history would read as "never changed".
    try {
      setHistory({ id, logs: await listTicketLogs(id) });
    } catch (e) {
      toast(`Could not load the history: ${loadFailure(e)}`, "danger");
    }
  }

  const list = rows ?? [];
  const shown = all ? list : list.slice(0, LAST_TICKETS);
  const where = useTicketLocations(shown.map((r) => r.id));
  return (
    <section className="card section" aria-label="Tickets">
      <div className="section-head">
        <h2>Tickets</h2>
        {list.length > LAST_TICKETS && (
          <button type="button" className="btn btn-small" onClick={() => setAll(!all)}>
            {all ? "Show the last 10" : "See All"}
          </button>
        )}
      </div>
      <LoadFailed what="this customer's tickets" error={failed} onRetry={() => void load()} />
      <LoadFailed what="the ticket states" error={states.error} onRetry={() => void states.retry()} />
      {shown.length === 0 ? (
        rows && <p className="muted">No tickets yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="tickets-table">
            <thead>
              <tr>
                <th>#</th>
                <th>State</th>
                <th>Agent</th>
                <th>Pickup</th>
                <th>Delivery</th>
                <th>Total</th>
                <th>Where</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {shown.map((r) => [
                <tr key={r.id} data-testid="customer-ticket">
                  <td>
                    <Link href={`/tickets/${r.id}`}>#{r.id}</Link>
                  </td>
                  <td>
                    <select aria-label={`State of ticket ${r.id}`} value={r.state} onChange={(e) => setState(r.id, e.target.value)}>
                      {(states.items ?? []).map((s) => (
                        <option key={s.id} value={s.name}>
                          {s.name || "(none)"}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>{r.agent_name}</td>
                  <td>{displayDate(r.pickup_date)}</td>
                  <td>{displayDate(r.delivery_date)}</td>
                  <td className="price">{euroFromEuros(r.total)}</td>
                  <td data-testid="ticket-where">{where.get(r.id)?.join(", ") ?? ""}</td>
                  <td className="row-buttons">
                    <Link href={`/customers/${customerId}/new-ticket/${r.id}`} className="btn btn-small">
                      Edit
                    </Link>
                    <button type="button" className="btn btn-small" aria-label={`History of ticket ${r.id}`} onClick={() => showHistory(r.id)}>
                      History
                    </button>
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-expanded={paymentsOf === r.id}
                      aria-label={`Payments of ticket ${r.id}`}
                      onClick={() => setPaymentsOf(paymentsOf === r.id ? null : r.id)}
                    >
                      Payments
                    </button>
                    <button type="button" className="btn btn-small btn-primary" onClick={() => pay(r)}>
                      {payLabel(r, euroFromEuros)}
                    </button>
                  </td>
                </tr>,
                paymentsOf === r.id && (
                  <tr key={`${r.id}-payments`} data-testid="customer-ticket-payments">
                    <td colSpan={7}>
                      <Payments ticketId={r.id} version={r.balance} onRefunded={() => void load()} empty="No payments yet." />
                    </td>
                  </tr>
                ),
              ])}
            </tbody>
          </table>
        </div>
      )}
      {history && (
        <div className="overlay" onClick={() => setHistory(null)}>
          <div
            className="dialog history-dialog"
            role="dialog"
            aria-modal="true"
            aria-label={`History of ticket ${history.id}`}
            onClick={(e) => e.stopPropagation()}
          >
            <h2>Ticket #{history.id}</h2>
            <HistoryTable logs={history.logs} />
            <div className="dialog-buttons">
              <button type="button" className="btn" onClick={() => setHistory(null)}>
                Close
              </button>
            </div>
          </div>
        </div>
      )}
    </section>
  );
}
