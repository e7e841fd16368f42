import { signal } from "@preact/signals-react";
import { useSignals } from "@preact/signals-react/runtime";

/**
 * Spec §9: the loading indicator turns on after 250 ms of pending work and, once shown,
 * stays at least until 500 ms have passed, so quick calls never flash it.
 */
export const SHOW_AFTER_MS = 250;
export const MIN_VISIBLE_UNTIL_MS = 500;
/** Spec §9: work still pending after 5 s covers the screen ("Still working…"), so nobody taps twice. */
export const OVERLAY_AFTER_MS = 5_000;
const overlay = signal(false);
/** Whether the 5-second overlay shows. */
export const loadingOverlay = overlay;
let overlayTimer: ReturnType<typeof setTimeout> | null = null;

const visible = signal(false);
/** Whether the indicator shows (read by tests and by screens that dim themselves). */
export const loadingVisible = visible;
let pendingCount = 0;
let showTimer: ReturnType<typeof setTimeout> | null = null;
let shownAt = 0;

export function trackLoading(): () => void {
  pendingCount++;
  const started = Date.now();
  if (pendingCount === 1 && !overlayTimer) overlayTimer = setTimeout(() => (overlay.value = true), OVERLAY_AFTER_MS);
  if (pendingCount === 1 && !visible.value) {
    showTimer = setTimeout(() => {
      visible.value = true;
      shownAt = started;
    }, SHOW_AFTER_MS);
  }
  let finished = false;
  return () => {
    if (finished) return;
    finished = true;
    pendingCount--;
    if (pendingCount > 0) return;
    if (overlayTimer) clearTimeout(overlayTimer);
    overlayTimer = null;
    overlay.value = false;
    if (showTimer) clearTimeout(showTimer);
    showTimer = null;
    if (visible.value) {
      const wait = Math.max(0, shownAt + MIN_VISIBLE_UNTIL_MS - Date.now());
      setTimeout(() => pendingCount === 0 && (visible.value = false), wait);
    }
  };
}

export function LoadingBar() {
  useSignals();
  return (
    <>
      {visible.value && <div className="loading-bar" role="progressbar" aria-label="Loading" />}
      {overlay.value && (
        <div className="loading-overlay" role="status" data-testid="loading-overlay">
          <span className="card">Still working…</span>
        </div>
      )}
    </>
  );
}
