import { useCallback, useEffect, useState } from "react";
import type { ImportStatusView } from "../../../appliance/modules/import/model";
import { Field, Section, Toggle } from "../../components/form";
import { LoadFailed } from "../../components/LoadFailed";
import { loadFailure } from "../../lib/api";
import { cancelImport, importStatus, startImport } from "./api";
import { ExportSection } from "./Export";

type Status = ImportStatusView;
type Report = NonNullable<Status["report"]>;
type Pin = Status["pins"][number];

/** Every second while an import runs: its progress moves by batches of 200 records. */
const POLL_MS = 1000;

const n = (x: number) => x.toLocaleString("en-GB");
const euros = (cents: number) => `€${(cents / 100).toLocaleString("en-GB", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const timeLeft = (s: number | null) =>
  s == null
    ? "working out the time left…"
    : s >= 3600
      ? `about ${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min left`
      : s >= 60
        ? `about ${Math.round(s / 60)} min left`
        : `${s} s left`;

/**
 * Configuration → Import (HQ staff, as the server's /import/ routes): brings the chain's
 * records over from the system it uses today, through that system's API (issue 26). The
 * import runs on the box; this screen starts it, shows its progress and the final report.
 * New employees' PINs come once, to whoever started the import: they are kept on this screen
 * until it is left, and never again.
 */
export function ImportScreen() {
  const [status, setStatus] = useState<Status | null>(null);
  const [pins, setPins] = useState<Pin[]>([]);
  const [from, setFrom] = useState("");
  const [user, setUser] = useState("");
  const [password, setPassword] = useState("");
  const [pin, setPin] = useState("");
  const [dryRun, setDryRun] = useState(true);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);

  const take = useCallback((s: Status) => {
    setStatus(s);
    if (s.pins.length) setPins(s.pins);
  }, []);

  const running = status?.state === "running";
  // Where the box's import is (one may be running from before this screen opened).
  // A status that cannot be read says so with Retry, never "Reading the import…" for ever (issue 31).
  const load = useCallback(
    () =>
      importStatus().then(
        (s) => (take(s), setFailed(null)),
        (e) => setFailed(loadFailure(e)),
      ),
    [take],
  );
  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (!running) return;
    let stop = false;
    const t = setInterval(
      () =>
        importStatus().then(
          (s) => !stop && take(s),
          () => {},
        ),
      POLL_MS,
    );
    return () => {
      stop = true;
      clearInterval(t);
    };
  }, [running, take]);

  async function start() {
    setBusy(true);
    try {
      setPins([]);
      take(await startImport({ from: from.trim(), user: user.trim(), password, pin: pin.trim(), dry_run: dryRun }));
      setPassword("");
      setPin("");
    } catch {
      // the toast said why
    } finally {
      setBusy(false);
    }
  }

  async function cancel() {
    try {
      take(await cancelImport());
    } catch {
      // the toast said why
    }
  }

  if (!status) return failed ? <LoadFailed what="the import" error={failed} onRetry={() => void load()} /> : <p className="muted">Reading the import…</p>;
  const ready = from.trim() && user.trim() && password && /^\d{4,8}$/.test(pin.trim());

  return (
    <div className="stack">
      {running ? (
        <Section
          title={status.dry_run ? "Dry run under way" : "Import under way"}
          actions={
            <button type="button" className="btn btn-small btn-danger" onClick={cancel}>
              Cancel
            </button>
          }
        >
          <div style={{ padding: "0 16px 12px" }}>
            <p>From {status.source}</p>
            {status.progress ? (
              <>
                <progress max={100} value={status.progress.percent} style={{ width: "100%" }} />
                <p data-testid="import-progress">
                  Step {status.progress.step}: {n(status.progress.done)} of {n(status.progress.total)} ({status.progress.percent} %),{" "}
                  {timeLeft(status.progress.seconds_left)}
                </p>
              </>
            ) : (
              <p className="muted">Logging in to the old system…</p>
            )}
            <p className="muted">Cancel stops after the current batch; what was written stays, and starting again resumes.</p>
          </div>
        </Section>
      ) : (
        <Section title="Import from the system in use today">
          <div className="form" style={{ padding: "0 16px 12px" }}>
            <Field label="Old system's address" hint="Its API base URL, e.g. https://old-server:8080 (the box adds /api/v1)">
              <input value={from} onChange={(e) => setFrom(e.target.value)} placeholder="https://old-server:8080" autoComplete="off" />
            </Field>
            <Field label="Agent user" hint="Use the head-quarters agent: it sees every shop">
              <input value={user} onChange={(e) => setUser(e.target.value)} autoComplete="off" />
            </Field>
            <Field label="Agent password">
              <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" />
            </Field>
            <Field label="Admin PIN" hint="An admin's PIN at the old system">
              <input type="password" inputMode="numeric" value={pin} onChange={(e) => setPin(e.target.value)} autoComplete="off" />
            </Field>
            <Toggle label="Dry run (read and report only; nothing is written)" checked={dryRun} onChange={setDryRun} />
            <div className="form-buttons">
              <button type="button" className="btn btn-primary" onClick={start} disabled={busy || !ready}>
                Start
              </button>
            </div>
          </div>
        </Section>
      )}
      {status.state === "failed" && (
        <p className="error" role="alert" style={{ margin: "0 16px" }}>
          The import stopped: {status.error}. What was written stays; start it again to resume.
        </p>
      )}
      {pins.length > 0 && <NewPins pins={pins} />}
      {status.report && !running && <ImportReport report={status.report} />}
      <ExportSection />
    </div>
  );
}

function NewPins({ pins }: { pins: Pin[] }) {
  return (
    <Section title="New PINs">
      <p role="alert" style={{ margin: "0 16px 8px" }}>
        Write these down now and hand each to its employee: they are shown only this once (PINs cannot be read from the old system).
      </p>
      <div className="table-scroll">
        <table aria-label="New PINs">
          <thead>
            <tr>
              <th>Employee</th>
              <th>Name</th>
              <th>Agent</th>
              <th>PIN</th>
            </tr>
          </thead>
          <tbody>
            {pins.map((p) => (
              <tr key={p.employee_id}>
                <td>{p.employee_id}</td>
                <td>{p.full_name}</td>
                <td>{p.agent_id}</td>
                <td>
                  <strong>{p.pin}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

function ImportReport({ report: r }: { report: Report }) {
  const m = r.money;
  const refused = r.refusals.length + r.refusals_not_listed;
  return (
    <Section title={r.dry_run ? "Dry run report (nothing was written)" : `Import report (run ${r.run_id})`}>
      <p style={{ margin: "0 16px 8px" }}>
        From {r.source}: {r.seconds} s, {n(r.requests)} requests.
      </p>
      <div className="table-scroll">
        <table aria-label="Records by kind">
          <thead>
            <tr>
              <th>Kind</th>
              <th>Read</th>
              <th>New</th>
              <th>Changed</th>
              <th>Unchanged</th>
              <th>Refused</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(r.kinds).map(([kind, c]) => (
              <tr key={kind} data-kind={kind}>
                <td>{kind.replace(/_/g, " ")}</td>
                <td>{n(c.read)}</td>
                <td>{n(c.new)}</td>
                <td>{n(c.changed)}</td>
                <td>{n(c.unchanged)}</td>
                <td>{n(c.refused)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p data-testid="import-money" style={{ margin: "8px 16px" }}>
        Money: {n(m.tickets)} tickets {r.dry_run ? "would be written" : "written"}, totals {euros(m.total_cents)}, paid {euros(m.paid_cents)};{" "}
        {m.equal_to_source
          ? "each equal to the old system's, ticket by ticket."
          : `${n(m.refused_for_money)} ticket(s) refused because their money did not add up (listed below).`}
      </p>
      {r.totals && (
        <p data-testid="import-totals" className={r.totals.ok ? undefined : "form-error"} style={{ margin: "0 16px 8px" }}>
          {r.totals.ok
            ? "Every paid total on this box equals its payment rows."
            : `Check: ${r.totals.message}. The payment rows are the record; tell support before taking more money on those tickets.`}
        </p>
      )}
      {r.skipped.length > 0 && (
        <>
          <p data-testid="import-skipped" style={{ margin: "0 16px 8px" }}>
            Not taken from the old system ({n(r.skipped.length)}): privileges are this box's own; grant them on Agents or Employees if they are right.
          </p>
          <div className="table-scroll">
            <table aria-label="Privileges not taken">
              <thead>
                <tr>
                  <th>Kind</th>
                  <th>Id</th>
                  <th>What</th>
                  <th>Old system</th>
                  <th>Here</th>
                </tr>
              </thead>
              <tbody>
                {r.skipped.map((x) => (
                  <tr key={`${x.kind}-${x.id}-${x.field}`}>
                    <td>{x.kind}</td>
                    <td>{x.id}</td>
                    <td>{x.field === "role" ? "role" : x.field === "is_hq" ? "head office" : "HQ flag"}</td>
                    <td>{String(x.source)}</td>
                    <td>{String(x.kept)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {refused === 0 ? (
        <p data-testid="import-refused" style={{ margin: "0 16px 12px" }}>
          Nothing refused.
        </p>
      ) : (
        <>
          <p data-testid="import-refused" style={{ margin: "0 16px 8px" }}>
            Refused: {n(refused)}
            {r.refusals_not_listed ? ` (the first ${n(r.refusals.length)} listed)` : ""}.
          </p>
          <div className="table-scroll">
            <table aria-label="Refused records">
              <thead>
                <tr>
                  <th>Kind</th>
                  <th>Id</th>
                  <th>Why</th>
                </tr>
              </thead>
              <tbody>
                {r.refusals.map((x) => (
                  <tr key={`${x.kind}-${x.id}-${x.reason}`}>
                    <td>{x.kind.replace(/_/g, " ")}</td>
                    <td>{x.id ?? "?"}</td>
                    <td>{x.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Section>
  );
}
