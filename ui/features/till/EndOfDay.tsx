import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import { businessDay } from "../../../appliance/domain/dates";
import { displayDate, displayDateTime, euroFromEuros } from "../../../appliance/domain/format";
import { toCents, toEuros, typedCents } from "../../../appliance/domain/money";
import type { DRAWER_TENDERS, TillDay } from "../../../appliance/modules/money/model";

/** The drawer's tenders: charges on account are no money in it. */
type Tender = (typeof DRAWER_TENDERS)[number];
import { DateField } from "../../components/DateField";
import { toast } from "../../components/toast";
import type { PrintJob, PrintResult } from "../../../appliance/modules/printing/model";
import { api, BASE, loadFailure } from "../../lib/api";
import { countOf } from "../../lib/plural";
import { LoadFailed } from "../../components/LoadFailed";
import { confirmDialog } from "../../components/dialog";
import { currentToken, employee } from "../../lib/session";
import { choice } from "../printing/printer";

// The box's models are imported type-only (README "Layout"): the tenders are listed here.
const TENDERS: readonly Tender[] = ["cash", "card", "other"];
const LABEL: Record<Tender, string> = { cash: "Cash", card: "Card", other: "Other" };

const getTill = (day: string) => api<TillDay>("GET", `/till/${day}`, { quiet: true });
/** Quiet: a refused close (409: already closed) shows the box's message on the screen. */
const closeTill = (day: string, counted: Record<Tender, number>, note: string) =>
  api<TillDay>("POST", `/till/${day}/close`, { body: { counted, note }, quiet: true });
const reopenTill = (day: string) => api<TillDay>("POST", `/till/${day}/reopen`);

/**
 * The Z report on a receipt printer of the box: the one this tablet prints receipts on when it
 * is a box ESC/POS printer, else the box's first. Quiet: a refusal shows on the screen.
 */
const printZ = (day: string) => {
  const c = choice.value;
  const printer = (c.port === "u" || c.port === "b") && c.encoding === "ESCPOS" ? c.printer : undefined;
  return api<PrintResult>("POST", "/print/zReport", { body: { date: day, ...(printer ? { printer } : {}) }, quiet: true });
};

/** Follows a job in the journal until it is printed or failed (bounded: about 20 s). */
async function jobOutcome(id: number): Promise<PrintJob["status"] | "unknown"> {
  for (let i = 0; i < 20; i++) {
    const jobs = await api<PrintJob[]>("GET", "/printJobs/", { query: { limit: 50 }, quiet: true }).catch(() => []);
    const status = jobs.find((j) => j.id === id)?.status;
    if (status === "done" || status === "failed") return status;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return "unknown";
}

/** The Z report PDF (GET /till/{day}/z.pdf reads the token from the header): fetched, then saved under the box's name for it. */
async function downloadZ(day: string) {
  const res = await fetch(`${BASE}/till/${day}/z.pdf`, { headers: { authorization: `token ${currentToken()}` } });
  if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? "Something went wrong");
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `Z ${day}.pdf`;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(await res.blob());
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** "12,50" or "12.50" in cents; NaN when it is no amount or a fraction of a cent. */
const cents = typedCents;
/** A variance in words: "€1.00 over" (more in the drawer than expected) or "€1.00 short". */
const overShort = (v: number) => `${euroFromEuros(toEuros(Math.abs(v)))} ${v > 0 ? "over" : "short"}`;

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
  const [zStatus, setZStatus] = useState("");
  const [failed, setFailed] = useState<string | null>(null);
  const admin = employee.value?.role === "admin";

  // A drawer that failed to load says so with Retry, never "Loading…" for ever (issue 31).
  const load = () =>
    getTill(day).then(
      (t) => (setTill(t), setFailed(null)),
      (e) => setFailed(loadFailure(e)),
    );
  // biome-ignore lint/correctness/useExhaustiveDependencies: load reads only day
  useEffect(() => {
    if (!day) return;
    setTill(null);
    setError("");
    setFailed(null);
    void load();
  }, [day]);

  const variance = (t: Tender) => {
    const c = cents(counted[t]);
    return till && Number.isFinite(c) ? c - toCents(till.expected[t]) : null;
  };
  const ready = TENDERS.every((t) => Number.isFinite(cents(counted[t])));
  // Each tender whose count differs from what the box expects, as "Cash €1.00 over" (issue 31).
  const off = TENDERS.flatMap((t) => {
    const v = variance(t);
    return v ? [`${LABEL[t]} ${overShort(v)}`] : [];
  });

  async function close(e: React.FormEvent) {
    e.preventDefault();
    if (!ready || busy) return;
    setError("");
    // A drawer that does not agree closes only with a reason and a second look (issue 31).
    if (off.length) {
      if (!note.trim()) return setError(`The drawer is ${off.join(", ")}: say why in the note.`);
      const ok = await confirmDialog({
        title: "Close with a variance?",
        message: `${off.join(", ")}. Close the drawer anyway?`,
        okText: "Close with the variance",
      });
      if (!ok) return;
    }
    setBusy(true);
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
  async function printZReport() {
    setZStatus("Sending the Z report to the receipt printer…");
    try {
      const r = await printZ(day);
      const outcome = await jobOutcome(r.jobs[0]!);
      setZStatus(outcome === "done" ? "Z report printed" : outcome === "failed" ? "The Z report did not print: see the printers screen" : "Z report queued");
    } catch (err) {
      setZStatus(err instanceof Error ? err.message : "Something went wrong");
    }
  }
  async function zPdf() {
    await downloadZ(day).catch((err) => toast(err instanceof Error ? err.message : "Something went wrong", "danger"));
  }
  async function reopen() {
    setTill(await reopenTill(day).catch(() => till));
  }

  return (
    <div className="stack">
      <section className="card">
        <DateField label="Day" value={day} onChange={(d) => d && setDay(d)} clearable={false} />
      </section>
      {failed ? (
        <LoadFailed what="the drawer" error={failed} onRetry={() => void load()} />
      ) : !till ? (
        <p className="muted">Loading the drawer…</p>
      ) : (
        <section className="card" aria-label="Drawer">
          <h2>Drawer of {displayDate(till.day)}</h2>
          <p data-testid="till-counts">
            {countOf(till.payments, "payment")} · {countOf(till.refunds, "refund")}
          </p>
          {(till.deposits.taken > 0 || till.deposits.given_back > 0 || till.deposits.spent > 0) && (
            <p data-testid="till-deposits">
              Deposits taken {euroFromEuros(till.deposits.taken)} · given back {euroFromEuros(till.deposits.given_back)} (both in the drawer) · spent on tickets{" "}
              {euroFromEuros(till.deposits.spent)} (not in the drawer)
            </p>
          )}
          {till.moved_to_next_day > 0 && (
            <p className="muted" role="note">
              {countOf(till.moved_to_next_day, "payment")} of this day taken after its close count in the next open day.
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
            {!till.closed && off.length > 0 && (
              <p className="form-error" data-testid="variance-summary">
                {off.join(" · ")}
              </p>
            )}
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
              <button type="button" className="btn" onClick={printZReport}>
                Print Z report
              </button>
              <button type="button" className="btn" onClick={zPdf}>
                Z report PDF
              </button>
            </div>
            {zStatus && (
              <p className="muted" aria-live="polite" data-testid="z-status">
                {zStatus}
              </p>
            )}
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
