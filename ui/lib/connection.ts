import { signal } from "@preact/signals-react";

/**
 * Whether the box answers (issue 16): api.ts reports every answer and every failed fetch here.
 * While the box does not answer, a small heartbeat asks /api/v1/health every few seconds; the
 * first answer clears the banner, and the screen goes on where it was (no reload).
 */
export const HEARTBEAT_MS = 3_000;
const LAST_CONTACT_KEY = "ironbox.lastContact";

/** When the box last answered this tablet (kept across reloads, so an offline start shows it too). */
export const lastContact = signal<Date | null>(readLastContact());
/** True from a failed fetch until the box answers again. */
export const boxUnreachable = signal(false);

let heartbeat: ReturnType<typeof setInterval> | null = null;

function readLastContact(): Date | null {
  try {
    const v = localStorage.getItem(LAST_CONTACT_KEY);
    return v ? new Date(v) : null;
  } catch {
    return null;
  }
}

/** Any HTTP answer from the box, even an error status: it is there. */
export function boxAnswered(): void {
  const now = new Date();
  lastContact.value = now;
  try {
    localStorage.setItem(LAST_CONTACT_KEY, now.toISOString());
  } catch {
    // Private mode or a full store: the banner then shows this session's contacts only.
  }
  if (boxUnreachable.value) console.info("The box answers again");
  boxUnreachable.value = false;
  if (heartbeat) clearInterval(heartbeat);
  heartbeat = null;
}

/** A fetch that got no HTTP answer at all (network down, box stopped). */
export function boxDidNotAnswer(): void {
  if (!boxUnreachable.value) console.warn("Offline: the box is not answering; retrying every", HEARTBEAT_MS / 1000, "s");
  boxUnreachable.value = true;
  heartbeat ??= setInterval(async () => {
    try {
      // A box that hangs without refusing must not pile checks up: each gives up before the next.
      await fetch("/api/v1/health", { cache: "no-store", signal: AbortSignal.timeout(HEARTBEAT_MS - 500) });
      boxAnswered();
    } catch {
      // Still away; the next beat tries again.
    }
  }, HEARTBEAT_MS);
}
