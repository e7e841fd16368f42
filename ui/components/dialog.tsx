import { signal } from "@preact/signals-react";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useRef } from "react";

/** Spec §9: default title 'Confirm!', message 'Are you sure?', buttons OK and Cancel. */
interface Pending {
  title: string;
  message: string;
  okText: string;
  cancelText: string;
  /** A frozen dialog ignores Escape and clicks outside: only its buttons close it. */
  frozen: boolean;
  resolve: (ok: boolean) => void;
}
const pending = signal<Pending | null>(null);

export function confirmDialog(opts: Partial<Omit<Pending, "resolve">> = {}): Promise<boolean> {
  return new Promise((resolve) => {
    pending.value = { title: "Confirm!", message: "Are you sure?", okText: "OK", cancelText: "Cancel", frozen: false, ...opts, resolve };
  });
}

function close(ok: boolean) {
  const p = pending.value;
  pending.value = null;
  p?.resolve(ok);
}

export function ConfirmDialogHost() {
  useSignals();
  const p = pending.value;
  const okRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!p) return;
    okRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !p.frozen) close(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [p]);
  if (!p) return null;
  return (
    <div className="overlay" onClick={() => !p.frozen && close(false)}>
      <div className="dialog" role="alertdialog" aria-modal="true" aria-labelledby="dialog-title" onClick={(e) => e.stopPropagation()}>
        <h2 id="dialog-title">{p.title}</h2>
        <p>{p.message}</p>
        <div className="dialog-buttons">
          <button type="button" className="btn" onClick={() => close(false)}>
            {p.cancelText}
          </button>
          <button type="button" className="btn btn-primary" ref={okRef} onClick={() => close(true)}>
            {p.okText}
          </button>
        </div>
      </div>
    </div>
  );
}
