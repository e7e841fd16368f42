/**
 * The box's background services (gun readers, the outbox's sender, the link to HQ, timers)
 * registered once, in the order they start; stopped in reverse, so a service is stopped
 * before what it relies on. `stop()` is the one place that waits for all of them, and the
 * database closes only after it resolves.
 */

/** What a started service hands back: how to stop it (awaited). */
export type StopFn = () => void | Promise<void>;

export interface Service {
  /** For the log when it fails to start or stop. */
  name: string;
  /** Starts it; returns its stop, or nothing for a step that leaves nothing running. */
  start: () => StopFn | undefined | void | Promise<StopFn | undefined | void>;
}

export interface Lifecycle {
  /** Adds a service after those already added (started after them, stopped before them). */
  add(name: string, start: Service["start"]): void;
  /**
   * Starts every service in order. When one fails, those already started are stopped (in
   * reverse) and the error is thrown: the box does not serve half started.
   */
  start(): Promise<void>;
  /** Stops what started, last first, each awaited; a failing stop is logged and the rest still stop. Once. */
  stop(): Promise<void>;
}

export function createLifecycle(log: (m: string, e?: unknown) => void): Lifecycle {
  const services: Service[] = [];
  const running: { name: string; stop: StopFn }[] = [];
  let started = false;
  let stopping: Promise<void> | null = null;

  async function stopRunning() {
    let first: unknown = null;
    while (running.length) {
      const s = running.pop()!;
      try {
        await s.stop();
      } catch (e) {
        log(`${s.name}: did not stop cleanly`, e);
        first ??= e;
      }
    }
    if (first) throw first;
  }

  return {
    add(name, start) {
      if (started) throw new Error(`lifecycle: ${name} added after the start`);
      services.push({ name, start });
    },
    async start() {
      if (started) throw new Error("lifecycle: started twice");
      started = true;
      for (const s of services) {
        if (stopping) return;
        try {
          const stop = await s.start();
          // Stopped while this one was starting: it stops at once, and nothing after it starts.
          if (stop && stopping) await stop();
          else if (stop) running.push({ name: s.name, stop });
        } catch (e) {
          log(`${s.name}: did not start`, e);
          await stopRunning().catch(() => {});
          throw e;
        }
      }
    },
    stop() {
      stopping ??= stopRunning();
      return stopping;
    },
  };
}
