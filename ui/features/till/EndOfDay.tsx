import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { businessDay } from "../../../appliance/domain/dates";
import { displayDate, displayDateTime, euroFromEuros } from "../../../appliance/domain/format";
import { toCents, toEuros } from "../../../appliance/domain/money";
import type { Tender, TillDay } from "../../../appliance/modules/payments/model";
import { DateField } from "../../components/DateField";
import { toast } from "../../components/toast";
import { api } from "../../lib/api";
import { employee } from "../../lib/session";

// The box's models are imported type-only (README "Layout"): the tenders are listed here.
const TENDERS: readonly Tender[] = ["cash", "card", "other"];
const LABEL: Record<Tender, string> = { cash: "Cash", card: "Card", other: "Other" };

const getTill = (day: string) => api<TillDay>("GET", `/till/${day}`);
/** Quiet: a refused close (409: already closed) shows the box's message on the screen. */
const closeTill = (day: string, counted: Record<Tender, number>, note: string) =>
  api<TillDay>("POST", `/till/${day}/close`, { body: { counted, note }, quiet: true });
const reopenTill = (day: string) => api<TillDay>("POST", `/till/${day}/reopen`);

/** "12,50" or "12.50" in cents; NaN when it is not an amount. */
const cents = (text: string) => (text.trim() === "" ? Number.NaN : toCents(Number(text.trim().replace(",", "."))));

/**
 * End of day (issue 24, admins and managers): a day's drawer as the box counts it (expected per
 * tender, payments and refunds, cash by employee or driver), the amounts counted, the variance in
 * colour (green when nothing is missing), a note, Close; admins may reopen a closed day.
 */
export function EndOfDay() {
  useSignals();
  const [day, setDay] = useState(businessDay(new Date()));
  const [till, setTill] = useState<TillDay | null>(null);
  const [counted, setCounted] = useState<Record<Tender, string>>({ cash: "", card: "", other: "" });
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const admin = employee.value?.role === "admin";

  useEffect(() => {
    if (!day) return;
    setTill(null);
    setError("");
    getTill(day).then(setTill, () => {});
  }, [day]);

  const variance = (t: Tender) => {
    const c = cents(counted[t]);
    return till && Number.isFinite(c) ? c - toCents(till.expected[t]) : null;
  };
  const ready = TENDERS.every((t) => Number.isFinite(cents(counted[t])));

  async function close(e: React.FormEvent) {
    e.preventDefault();
    if (!ready || busy) return;
    setBusy(true);
    setError("");
    try {
      const body = Object.fromEntries(TENDERS.map((t) => [t, toEuros(cents(counted[t]))])) as Record<Tender, number>;
      setTill(await closeTill(day, body, note));
      toast("Drawer closed");
    } catch (err) {
      setError(err instanceof Error ? err.message : "Something went wrong");
    } finally {
      setBusy(false);
    }
  }
  async function reopen() {
    setTill(await reopenTill(day).catch(() => till));
  }

  return (
    <div className="stack">
      <section className="card">
        <DateField label="Day" value={day} onChange={(d) => d && setDay(d)} clearable={false} />
      </section>
      {!till ? (
        <p className="muted">Loading the drawer…</p>
      ) : (
        <section className="card" aria-label="Drawer">
          <h2>Drawer of {displayDate(till.day)}</h2>
          <p data-testid="till-counts">
            {till.payments} payments · {till.refunds} refunds
          </p>
          {till.moved_to_next_day > 0 && (
            <p className="muted" role="note">
              {till.moved_to_next_day === 1 ? "1 payment" : `${till.moved_to_next_day} payments`} of this day taken after its close count in the next open day.
            </p>
          )}
          <form onSubmit={close}>
            <table className="till" data-testid="till">
              <thead>
                <tr>
                  <th>Tender</th>
                  <th>Expected</th>
                  <th>Counted</th>
                  <th>Variance</th>
                </tr>
              </thead>
              <tbody>
                {TENDERS.map((t) => {
                  const v = till.closed ? toCents(till.closed.variance[t]) : variance(t);
                  return (
                    <tr key={t}>
                      <td>{LABEL[t]}</td>
                      <td>{euroFromEuros(till.expected[t])}</td>
                      <td>
                        {till.closed ? (
                          euroFromEuros(till.closed.counted[t])
                        ) : (
                          <input
                            inputMode="decimal"
                            aria-label={`Counted ${LABEL[t].toLowerCase()}`}
                            value={counted[t]}
                            onChange={(e) => setCounted({ ...counted, [t]: e.target.value })}
                          />
                        )}
                      </td>
                      <td data-testid={`variance-${t}`} style={{ color: v === null ? undefined : v === 0 ? "#15803d" : "#b91c1c", fontWeight: 600 }}>
                        {v === null ? "" : euroFromEuros(toEuros(v))}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            {till.closed ? (
              <p role="status">
                Closed {displayDateTime(till.closed.closed_at)}
                {till.closed.note ? ` · ${till.closed.note}` : ""}
              </p>
            ) : (
              <label className="field">
                <span>Note</span>
                <input aria-label="Note" maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
              </label>
            )}
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
            <div className="form-buttons">
              {!till.closed && (
                <button type="submit" className="btn btn-primary" disabled={!ready || busy}>
                  Close the drawer
                </button>
              )}
              {till.closed && admin && (
                <button type="button" className="btn" onClick={reopen}>
                  Reopen
                </button>
              )}
            </div>
          </form>
          <h3>Cash by employee</h3>
          <table data-testid="till-by-employee">
            <tbody>
              {till.by_employee.map((r) => (
                <tr key={r.employee_id ?? 0}>
                  <td>{r.employee ?? "—"}</td>
                  <td>{r.role ?? ""}</td>
                  <td>{euroFromEuros(r.cash)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}
