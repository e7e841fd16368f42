import { useEffect, useState } from "react";
import { loadFailure } from "../../lib/api";
import { useList } from "../../lib/useList";
import { LoadFailed } from "../../components/LoadFailed";
import { DateField } from "../../components/DateField";
import { addDays, businessDay } from "../../../appliance/domain/dates";
import { displayDateTime, euroFromEuros } from "../../../appliance/domain/format";
import type { JourneyRow as Row } from "../../../appliance/modules/tracking/model";
import { listTicketStates } from "../tickets/api";
import { listEmployeeNames, stateJourney } from "./api";

/** Spec §2 State Logs: filters, rows, and a grand total counting each garment once. */
export function StateLogsScreen() {
  const today = businessDay(new Date());
  const blank = { tid: "", df: addDays(today, -7), dt: today, eid: "", s: "*" };
  const [f, setF] = useState(blank);
  const [rows, setRows] = useState<Row[]>([]);
  const [failed, setFailed] = useState<string | null>(null);
  const [total, setTotal] = useState(0);
  // The pickers' choices: a failed load says so (issue 31), never an "Any"-only picker.
  const stateList = useList(listTicketStates);
  const staffList = useList(listEmployeeNames);
  const states = stateList.items ?? [];
  const staff = staffList.items ?? [];
  const pickersFailed = stateList.error ?? staffList.error;
  const retryPickers = () => [stateList, staffList].forEach((l) => l.error && void l.retry());
  // HQ sees every shop's staff: then each name says whose it is.
  const shops = new Set(staff.map((s) => s.agent_id)).size;

  async function search(q = f) {
    let r: Awaited<ReturnType<typeof stateJourney>>;
    try {
      r = await stateJourney({ tid: q.tid || undefined, eid: q.eid || undefined, df: q.df, dt: q.dt, s: q.s === "*" ? undefined : q.s });
    } catch (e) {
      // The rows shown stay, under "Could not load" (issue 25): a failure is not "no logs".
      return setFailed(loadFailure(e));
    }
    setFailed(null);
    // Spec §7: the result is read from data.data.
    setRows(r?.data ?? []);
    setTotal(r?.grand_total ?? 0);
  }
  useEffect(() => void search(), []);
  const set = (k: keyof typeof f) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setF({ ...f, [k]: e.target.value });

  return (
    <div className="stack">
      <form
        className="card filters"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <label className="field">
          <span>Ticket ID</span>
          <input aria-label="Ticket ID" inputMode="numeric" value={f.tid} onChange={set("tid")} />
        </label>
        <div className="field">
          <span>Date From</span>
          <DateField label="Date From" value={f.df} onChange={(df) => setF((x) => ({ ...x, df }))} />
        </div>
        <div className="field">
          <span>Date To</span>
          <DateField label="Date To" value={f.dt} onChange={(dt) => setF((x) => ({ ...x, dt }))} />
        </div>
        <label className="field">
          <span>Employee</span>
          <select aria-label="Employee" value={f.eid} onChange={set("eid")}>
            <option value="">Any</option>
            {staff.map((s) => (
              <option key={s.id} value={s.id}>
                {shops > 1 ? `${s.full_name} · ${s.agent}` : s.full_name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>State</span>
          <select aria-label="State" value={f.s} onChange={set("s")}>
            <option value="*">Any</option>
            {states.map((s) => (
              <option key={s.id} value={s.name}>
                {s.name || "(none)"}
              </option>
            ))}
          </select>
        </label>
        <div className="form-buttons">
          <button type="button" className="btn" onClick={() => (setF(blank), void search(blank))}>
            Reset
          </button>
          <button type="submit" className="btn btn-primary">
            Search
          </button>
        </div>
      </form>
      <LoadFailed what="the employees and states" error={pickersFailed} onRetry={retryPickers} />
      <LoadFailed what="the state logs" error={failed} onRetry={() => void search()} />
      <div className="card table-scroll">
        <table className="tickets-table" aria-label="State logs">
          <thead>
            <tr>
              <th>Ticket</th>
              <th>Garment</th>
              <th>Employee</th>
              <th>Agent</th>
              <th>State</th>
              <th>Date time</th>
              <th>Description</th>
              <th>Total</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={`${r.garment_id}-${r.date}-${i}`}>
                <td>{r.ticket_id}</td>
                <td>{r.garment_id}</td>
                <td>{r.employee}</td>
                <td>{r.agent}</td>
                <td>{r.state || "(none)"}</td>
                <td>{displayDateTime(r.date)}</td>
                <td>{r.description}</td>
                <td className="price">{euroFromEuros(r.total)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <td colSpan={7}>Grand total (each garment once)</td>
              <td className="price" data-testid="grand-total">
                {euroFromEuros(total)}
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
    </div>
  );
}
