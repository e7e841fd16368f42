import { useSignals } from "@preact/signals-react/runtime";
import { CircleCheck, Eraser, Phone, TriangleAlert } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link } from "wouter";
import { euroFromEuros } from "../../../appliance/domain/format";
import { toast } from "../../components/toast";
import { LoadFailed } from "../../components/LoadFailed";
import { BASE, api, fetchList, queryString } from "../../lib/api";
import { countOf } from "../../lib/plural";
import { useList } from "../../lib/useList";
import { currentToken, employee } from "../../lib/session";
import { SignaturePad, type SignatureHandle } from "../scan/Signature";
import { type Run, type RunStop, driverRun } from "./api";
import { stopDone, stopNotReady } from "./runStop";

interface Staff {
  id: number;
  full_name: string;
  role: string;
}

/**
 * The Driver view of a scheduler day: one driver's stops (the driver's localities), in the
 * order the van drives them (locality, street), with what to collect or deliver and what is
 * owed; each stop is marked PICKED UP or DELIVERED on the spot with the customer's signature,
 * and the run prints as a PDF run sheet. A driver sees their own run; an admin picks one.
 */
export function DriverRun({ date }: { date: string }) {
  useSignals();
  const me = employee.value;
  const isDriver = me?.role === "driver";
  const staff = useList(() => (isDriver ? Promise.resolve([]) : fetchList<Staff>("/employees/")), String(isDriver));
  const drivers = (staff.items ?? []).filter((e) => e.role === "driver");
  const [driver, setDriver] = useState<number | undefined>(isDriver ? me?.employee_id : undefined);
  const [run, setRun] = useState<Run | null>(null);
  const [signing, setSigning] = useState<{ stop: RunStop; state: string } | null>(null);

  const firstDriver = drivers[0]?.id;
  useEffect(() => {
    if (firstDriver !== undefined) setDriver((d) => d ?? firstDriver);
  }, [firstDriver]);
  const load = () => (driver ? driverRun(date, isDriver ? undefined : driver).then(setRun, () => setRun(null)) : Promise.resolve());
  useEffect(() => {
    setRun(null);
    load();
  }, [date, driver]);

  async function openPdf() {
    // The run sheet route reads the token from the header, so it is fetched and shown as a blob.
    const tab = window.open("", "_blank");
    try {
      const res = await fetch(`${BASE}/schedule/run/pdf${queryString({ date, driver: isDriver ? undefined : driver, preview: "true" })}`, {
        headers: { authorization: `token ${currentToken()}` },
      });
      if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { message?: string } | null)?.message ?? "Something went wrong");
      const url = URL.createObjectURL(await res.blob());
      if (tab) tab.location.href = url;
      else window.location.href = url;
    } catch (e) {
      tab?.close();
      toast(e instanceof Error ? e.message : "Something went wrong", "danger");
    }
  }

  return (
    <div className="stack">
      <div className="toolbar">
        {!isDriver && (
          <label className="field run-driver">
            <span>Driver</span>
            <select aria-label="Driver" value={driver ?? ""} onChange={(e) => setDriver(Number(e.target.value) || undefined)}>
              {drivers.length === 0 && <option value="">No drivers</option>}
              {drivers.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.full_name}
                </option>
              ))}
            </select>
          </label>
        )}
        <span className="people-hint muted">{run ? `${countOf(run.stops.length, "stop")} for ${run.driver.full_name}` : ""}</span>
        <button type="button" className="btn" onClick={openPdf} disabled={!run}>
          Run sheet (PDF)
        </button>
      </div>
      <LoadFailed what="the drivers" error={staff.error} onRetry={() => void staff.retry()} />
      {!run ? (
        <p className="muted">{driver ? "Loading the run…" : "Choose a driver."}</p>
      ) : run.stops.length === 0 ? (
        <p className="empty">
          {run.driver.locality_ids.length ? "No stops this day." : `${run.driver.full_name} has no localities: set them on the employee.`}
        </p>
      ) : (
        <ol className="run-stops" aria-label="Stops">
          {run.stops.map((s) => (
            <Stop key={`${s.kind}${s.ticket_id}`} stop={s} onSign={(state) => setSigning({ stop: s, state })} />
          ))}
        </ol>
      )}
      {signing && <SignDialog {...signing} onClose={() => setSigning(null)} onDone={() => (setSigning(null), load())} />}
    </div>
  );
}

/**
 * One stop of the run. Built for a phone in a van (issue 25): the customer's name wraps rather
 * than being cut, numbers are big call buttons, and a done stop says so with no button left to
 * press again.
 */
function Stop({ stop: s, onSign }: { stop: RunStop; onSign: (state: string) => void }) {
  const done = stopDone(s);
  const phones = [s.mobile, s.landline].filter(Boolean);
  return (
    <li className={`card run-stop${done ? " run-stop-done" : ""}`} data-testid="run-stop" data-done={done}>
      <div className="sched-ticket-head">
        <div className="run-stop-main">
          <h3 className="run-stop-title">
            <span className="badge">{s.kind === "pickup" ? "Collect" : "Deliver"}</span> {s.customer_full_name}
          </h3>
          <span>{s.address}</span>
          {s.confirmed && (
            <span className="badge job-done" data-testid="run-confirmed">
              Confirmed by the customer (SMS)
            </span>
          )}
        </div>
        <div className="run-due">
          <Link href={`/tickets/${s.ticket_id}`}>#{s.ticket_id}</Link>
          <span className="badge">{s.state || "(none)"}</span>
          <strong className={s.amount_due > 0 ? "people-owed" : ""}>{s.amount_due > 0 ? `Due ${euroFromEuros(s.amount_due)}` : "Paid"}</strong>
        </div>
      </div>
      {!done && stopNotReady(s) && (
        <p className="run-not-ready" role="alert" data-testid="run-not-ready">
          <TriangleAlert size={18} aria-hidden="true" /> Not ready: the ticket is {s.state || "(none)"}
        </p>
      )}
      {s.comments && <p className="item-comment">{s.comments}</p>}
      <ul className="run-items">
        {s.items.map((i) => (
          <li key={i.id}>
            {i.quantity > 1 ? `${i.quantity} × ` : ""}
            {i.description}
            {i.pieces && i.pieces.includes(",") ? <span className="muted"> ({i.pieces})</span> : null}
          </li>
        ))}
      </ul>
      {done ? (
        <p className="run-done" role="status">
          <CircleCheck size={22} aria-hidden="true" /> {s.kind === "pickup" ? "Collected" : "Delivered"} · {s.state}
        </p>
      ) : (
        <>
          {phones.length > 0 && (
            <div className="run-calls">
              {phones.map((n) => (
                <a key={n} href={`tel:${n}`} className="btn run-tel">
                  <Phone size={20} aria-hidden="true" /> Call {n}
                </a>
              ))}
            </div>
          )}
          <div className="run-actions">
            {s.kind === "pickup" ? (
              <button type="button" className="btn btn-primary" onClick={() => onSign("PICKED UP")}>
                Picked up
              </button>
            ) : (
              <>
                {/* Money due: taking it is the expected step, so it is the primary button (issue 31). */}
                {s.amount_due > 0 && (
                  <button type="button" className="btn btn-primary" data-testid="run-primary" onClick={() => onSign("DELIVERED AND PAID")}>
                    Delivered, cash taken
                  </button>
                )}
                <button
                  type="button"
                  className={s.amount_due > 0 ? "btn" : "btn btn-primary"}
                  data-testid={s.amount_due > 0 ? undefined : "run-primary"}
                  onClick={() => onSign("DELIVERED")}
                >
                  Delivered
                </button>
              </>
            )}
          </div>
        </>
      )}
    </li>
  );
}

/**
 * The tracking signature flow at the door: the customer signs, the ticket takes the state.
 * DELIVERED AND PAID takes the balance as paid by the driver (an owing on them, README "Paid states").
 * On a phone it fills the screen so the pad is as large as it can be at spec §9's 5:2; Clear
 * sits on the pad, away from Cancel, and nothing is toasted: the stop itself shows it is done,
 * so no toast lies over the next stop.
 */
function SignDialog({ stop, state, onClose, onDone }: { stop: RunStop; state: string; onClose: () => void; onDone: () => void }) {
  const sig = useRef<SignatureHandle>(null);
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState(false);
  async function confirm() {
    const signature = sig.current?.value();
    if (!signature) return setMissing(true);
    setBusy(true);
    const r = await api<{ success: boolean }>("PUT", "/tickets/changeState", { body: { Ids: [stop.ticket_id], State: state, Signature: signature } }).catch(
      () => null,
    );
    setBusy(false);
    if (!r?.success) return;
    onDone();
  }
  return (
    <div className="overlay overlay-sheet">
      <div className="dialog run-sign" role="dialog" aria-modal="true" aria-label={`${state}: ticket ${stop.ticket_id}`}>
        <h2>
          {state} · #{stop.ticket_id}
        </h2>
        <p>
          {stop.customer_full_name}
          {state === "DELIVERED AND PAID" && ` pays ${euroFromEuros(stop.amount_due)}`}
        </p>
        <div className="run-sign-pad" onPointerDown={() => setMissing(false)}>
          <span className="run-sign-here" aria-hidden="true">
            Sign here
          </span>
          <SignaturePad ref={sig} />
          <button type="button" className="btn btn-small run-sign-clear" onClick={() => sig.current?.clear()}>
            <Eraser size={16} aria-hidden="true" /> Clear
          </button>
        </div>
        {missing && (
          <p className="run-sign-missing" role="alert">
            The customer's signature is needed
          </p>
        )}
        <div className="dialog-buttons run-sign-buttons">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={confirm} disabled={busy}>
            Confirm
          </button>
        </div>
      </div>
    </div>
  );
}
