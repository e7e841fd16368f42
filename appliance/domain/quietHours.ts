// Quiet hours (issue 25): automatic messages reached at night wait for the morning. Pure:
// the window is wall-clock time in the shop's zone, the answer an instant in UTC.

export type QuietHours = { enabled: boolean; start: string; end: string };
/** 21:00–08:00 unless HQ sets otherwise. */
export const DEFAULT_QUIET_HOURS: QuietHours = { enabled: true, start: "21:00", end: "08:00" };
export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

function wall(at: Date, tz: string) {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: tz,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const n = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return { y: n("year"), mo: n("month"), d: n("day"), h: n("hour"), mi: n("minute"), s: n("second") };
}

/** The instant the wall clock of `tz` shows this day and time (the earlier one across a change of clocks). */
function instantOf(y: number, mo: number, d: number, minuteOfDay: number, tz: string): Date {
  const asUtc = Date.UTC(y, mo - 1, d, Math.floor(minuteOfDay / 60), minuteOfDay % 60);
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const w = wall(new Date(guess), tz);
    const offset = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s) - guess;
    guess = asUtc - offset;
  }
  return new Date(guess);
}

/**
 * When a message reached at `at` may go: null when `at` is outside quiet hours (now), else
 * the end of this night's quiet hours. A window whose start and end are equal is never quiet.
 */
export function quietUntil(at: Date, q: QuietHours, tz: string): Date | null {
  if (!q.enabled) return null;
  const s = minutes(q.start);
  const e = minutes(q.end);
  if (s === e) return null;
  const w = wall(at, tz);
  const m = w.h * 60 + w.mi;
  const quiet = s < e ? m >= s && m < e : m >= s || m < e;
  if (!quiet) return null;
  // Past the start of an overnight window: it ends tomorrow morning; otherwise today.
  const tomorrow = s > e && m >= s;
  const day = new Date(Date.UTC(w.y, w.mo - 1, w.d + (tomorrow ? 1 : 0)));
  return instantOf(day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate(), e, tz);
}
