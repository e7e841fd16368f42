import { signal } from "@preact/signals-react";
import { useSignals } from "@preact/signals-react/runtime";

/** Spec §9: toasts last 1.5 s, bottom, success colour unless told otherwise. */
export const TOAST_MS = 1500;
export type ToastColor = "success" | "danger" | "warning";
interface Toast {
  id: number;
  text: string;
  color: ToastColor;
  position: "top" | "bottom";
}

const toasts = signal<Toast[]>([]);
let next = 1;

export function toast(text: string, color: ToastColor = "success", position: "top" | "bottom" = "bottom", ms = TOAST_MS) {
  const t = { id: next++, text, color, position };
  toasts.value = [...toasts.value, t];
  setTimeout(() => (toasts.value = toasts.value.filter((x) => x.id !== t.id)), ms);
}

export function Toasts() {
  useSignals();
  return (
    <>
      {(["top", "bottom"] as const).map((pos) => (
        <div key={pos} className={`toasts toasts-${pos}`} aria-live="polite">
          {toasts.value
            .filter((t) => t.position === pos)
            .map((t) => (
              <div key={t.id} className={`toast toast-${t.color}`} role={t.color === "danger" ? "alert" : "status"}>
                {t.text}
              </div>
            ))}
        </div>
      ))}
    </>
  );
}
