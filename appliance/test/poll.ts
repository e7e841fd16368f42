/**
 * Waits for a condition instead of sleeping a guessed time: looks every `everyMs` until
 * `check` answers something truthy and returns it, or throws after `ms` saying what never
 * happened (a slow machine waits longer, a broken one fails plainly rather than later).
 */
export async function until<T>(check: () => T | Promise<T>, opts: { what: string; ms?: number; everyMs?: number }): Promise<NonNullable<T>> {
  const { what, ms = 10_000, everyMs = 20 } = opts;
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() >= end) throw new Error(`waited ${ms} ms: ${what} never happened`);
    await Bun.sleep(everyMs);
  }
}
