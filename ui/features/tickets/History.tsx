import { useState } from "react";
import { displayDateTime } from "../../../appliance/domain/format";
import type { TicketLog } from "../../../appliance/modules/tickets/model";

/** Spec §2 history: logged at, log, agent, employee and signature. */
export function History({ logs }: { logs: TicketLog[] }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="card">
      <button type="button" className="btn" onClick={() => setOpen(!open)} aria-expanded={open}>
        History ({logs.length})
      </button>
      {open && <HistoryTable logs={logs} />}
    </section>
  );
}

/** The history rows themselves, shared by the ticket view and the customer's ticket list. */
export function HistoryTable({ logs }: { logs: TicketLog[] }) {
  return (
    <table className="history">
      <thead>
        <tr>
          <th>Logged at</th>
          <th>Log</th>
          <th>Agent</th>
          <th>Employee</th>
          <th>Signature</th>
        </tr>
      </thead>
      <tbody>
        {logs.map((l) => (
          <tr key={l.id}>
            <td>{displayDateTime(l.logged_at)}</td>
            <td>
              {l.log} {l.state && <span className="badge">{l.state}</span>}
            </td>
            <td>{l.agent}</td>
            <td>{l.employee}</td>
            <td>{l.signature && <img className="signature" src={l.signature} alt="Signature" />}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
