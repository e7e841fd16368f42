// Repeats that cost money or annoy a customer are throttled (issue 22): a ticket's status
// message at most once a minute (a double tap, or a script, would text the customer again and
// again), and a channel's test message a few times a minute (each is a real SMS or e-mail, to
// any number the caller types).

/** A ticket's status message is refused (429) within this long of the last one queued for it. */
export const STATUS_REPEAT_MS = 60_000;
/** Test messages per channel, box-wide, in any minute. */
export const TESTS_PER_MINUTE = 3;

/** Whole seconds, at least 1, for "wait 40 s". */
export const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * At most `max` events per key in any `windowMs`. In memory: one process serves the box, and
 * a restart forgetting a minute's tests is harmless. Keys are few (one per channel).
 */
export function slidingWindow(max: number, windowMs: number) {
  const seen = new Map<string, number[]>();
  return {
    /** Counts an event at `now` when it fits and answers 0; otherwise how many ms until it would. */
    take(key: string, now: number): number {
      const recent = (seen.get(key) ?? []).filter((t) => now - t < windowMs && t <= now);
      seen.set(key, recent);
      if (recent.length >= max) return recent[0]! + windowMs - now;
      recent.push(now);
      return 0;
    },
  };
}
