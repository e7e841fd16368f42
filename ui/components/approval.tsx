import { useEffect, useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import { ApiError } from "../lib/api";
import { toast } from "./toast";

/** The box's 403s for a change that needs a manager (appliance/modules/approval/service.ts). */
const REQUIRED = "Manager approval required";
const REFUSED = "Manager approval refused";
export const needsApproval = (e: unknown): e is ApiError => e instanceof ApiError && e.status === 403 && e.message.startsWith(REQUIRED);

export interface Approval {
  pin: string;
}

/**
 * Runs a change that may need a manager (issue 11). `call` is made first without an approval;
 * if the box answers "Manager approval required", a dialog asks a manager or admin to type
 * their PIN on this tablet and the same change is sent again with it, until it goes through
 * or the dialog is cancelled (then null). Any other failure is toasted, as api() would.
 */
export async function withApproval<T>(call: (approval?: Approval) => Promise<T>): Promise<T | null> {
  try {
    return await call();
  } catch (e) {
    if (!needsApproval(e)) {
      toast(e instanceof Error ? e.message : "Something went wrong", "danger");
      return null;
    }
    return askManager(e.message.slice(REQUIRED.length).replace(/^:\s*/, ""), call);
  }
}

function askManager<T>(reason: string, call: (approval: Approval) => Promise<T>): Promise<T | null> {
  const host = document.createElement("div");
  document.body.appendChild(host);
  const root = createRoot(host);
  return new Promise((resolve) => {
    const done = (value: T | null) => {
      root.unmount();
      host.remove();
      resolve(value);
    };
    root.render(<ApprovalDialog reason={reason} submit={call} done={done} />);
  });
}

function ApprovalDialog<T>({ reason, submit, done }: { reason: string; submit: (a: Approval) => Promise<T>; done: (v: T | null) => void }) {
  const [pin, setPin] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), [error]);

  async function approve(e: React.FormEvent) {
    e.preventDefault();
    if (!pin || busy) return;
    setBusy(true);
    try {
      done(await submit({ pin }));
    } catch (err) {
      // A wrong PIN keeps the dialog open with the reason; the shop's PIN lock counts it.
      const message = err instanceof Error ? err.message : "Something went wrong";
      if (err instanceof ApiError && (err.status === 403 || err.status === 429) && (message.startsWith(REFUSED) || err.status === 429 || needsApproval(err))) {
        setError(message.startsWith(REFUSED) ? "That PIN is not a manager's or admin's of this shop" : message);
        setPin("");
        setBusy(false);
      } else {
        toast(message, "danger");
        done(null);
      }
    }
  }

  return (
    <div className="overlay">
      <form
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="approval-title"
        onSubmit={approve}
        onKeyDown={(e) => e.key === "Escape" && done(null)}
      >
        <h2 id="approval-title">Manager approval</h2>
        <p>This needs a manager: {reason}.</p>
        <p className="muted small">A manager or admin types their PIN here to approve it.</p>
        <input
          ref={input}
          type="password"
          inputMode="numeric"
          autoComplete="off"
          aria-label="Manager PIN"
          value={pin}
          onChange={(e) => setPin(e.target.value.replace(/\D/g, "").slice(0, 8))}
        />
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="button" className="btn" onClick={() => done(null)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={!pin || busy}>
            Approve
          </button>
        </div>
      </form>
    </div>
  );
}
