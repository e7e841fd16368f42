/** The one source of "now", injected so tests can move time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * Real time that only moves forward: the wall clock read once, then the monotonic timer. For
 * what measures the box's own processes (the HQ link's lag and back-off), where a clock set
 * back by NTP must not make a lag negative, and a test's fixed business clock must not stop it.
 */
export function monotonicClock(): Clock {
  const origin = Date.now() - performance.now();
  return { now: () => new Date(origin + performance.now()) };
}

/** A clock tests can set and advance. */
export function fixedClock(start: Date | string): Clock & { set(d: Date | string): void; advance(ms: number): void } {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (d) => void (t = new Date(d).getTime()),
    advance: (ms) => void (t += ms),
  };
}
