import { describe, expect, test } from "bun:test";
import { createLifecycle } from "./lifecycle";

/** A lifecycle whose services write what happens to one list, and a log that keeps its lines. */
function recorded() {
  const events: string[] = [];
  const logged: string[] = [];
  const life = createLifecycle((m) => logged.push(m));
  const service = (name: string, opts: { failStart?: boolean; failStop?: boolean; slowStopMs?: number } = {}) =>
    life.add(name, async () => {
      if (opts.failStart) throw new Error(`${name} cannot start`);
      events.push(`start ${name}`);
      return async () => {
        if (opts.slowStopMs) await new Promise((r) => setTimeout(r, opts.slowStopMs));
        events.push(`stop ${name}`);
        if (opts.failStop) throw new Error(`${name} cannot stop`);
      };
    });
  return { life, events, logged, service };
}

describe("lifecycle", () => {
  test("starts in the order added and stops in reverse, each stop awaited", async () => {
    const { life, events, service } = recorded();
    service("link");
    service("checkpointer", { slowStopMs: 20 });
    service("guns");
    await life.start();
    expect(events).toEqual(["start link", "start checkpointer", "start guns"]);
    await life.stop();
    // The slow stop finished before the next one began: stop() waits for each.
    expect(events.slice(3)).toEqual(["stop guns", "stop checkpointer", "stop link"]);
  });

  test("a step that returns no stop is started in its place and not stopped", async () => {
    const { life, events, service } = recorded();
    service("a");
    life.add("recovery", () => {
      events.push("recover");
    });
    service("b");
    await life.start();
    await life.stop();
    expect(events).toEqual(["start a", "recover", "start b", "stop b", "stop a"]);
  });

  test("a failing start stops what started, in reverse, starts nothing after it, and throws", async () => {
    const { life, events, logged, service } = recorded();
    service("a");
    service("b");
    service("c", { failStart: true });
    service("d");
    await expect(life.start()).rejects.toThrow("c cannot start");
    expect(events).toEqual(["start a", "start b", "stop b", "stop a"]);
    expect(logged).toEqual(["c: did not start"]);
    // Stopping afterwards stops nothing twice.
    await life.stop();
    expect(events).toHaveLength(4);
  });

  test("a failing stop is logged, the others still stop, and stop() rejects with it", async () => {
    const { life, events, logged, service } = recorded();
    service("a");
    service("b", { failStop: true });
    service("c");
    await life.start();
    await expect(life.stop()).rejects.toThrow("b cannot stop");
    expect(events.slice(3)).toEqual(["stop c", "stop b", "stop a"]);
    expect(logged).toEqual(["b: did not stop cleanly"]);
  });

  test("stop() runs once: a second call waits for the same stop", async () => {
    const { life, events, service } = recorded();
    service("a", { slowStopMs: 10 });
    await life.start();
    await Promise.all([life.stop(), life.stop()]);
    expect(events).toEqual(["start a", "stop a"]);
  });

  test("stopped while starting: the service starting stops at once and nothing after it starts", async () => {
    const events: string[] = [];
    const life = createLifecycle(() => {});
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    life.add("slow", async () => {
      await gate;
      events.push("start slow");
      return () => void events.push("stop slow");
    });
    life.add("later", () => {
      events.push("start later");
      return () => void events.push("stop later");
    });
    const starting = life.start();
    const stopping = life.stop();
    release();
    await starting;
    await stopping;
    expect(events).toEqual(["start slow", "stop slow"]);
  });

  test("nothing is added after the start", async () => {
    const { life } = recorded();
    await life.start();
    expect(() => life.add("late", () => {})).toThrow("added after the start");
  });
});
