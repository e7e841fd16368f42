// The link's state machine, driven by the log Litestream 0.3.13 really wrote during a burst
// that crossed WAL segments (drivers/replication/testdata), with a clock moved by hand.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseLogLine, type Position } from "../../../drivers/replication/litestream";
import { fixedClock } from "../../platform/clock";
import { createLinkMachine } from "./machine";

const testdata = join(import.meta.dir, "../../../drivers/replication/testdata");
const log = readFileSync(join(testdata, "litestream-burst.log"), "utf8").trim().split("\n").map(parseLogLine);
const shadow = JSON.parse(readFileSync(join(testdata, "shadow-wal.json"), "utf8"));
const GEN: string = shadow.idle_after_burst.generation;
/** Where the box was after the burst: its newest shadow segment and that segment's size. */
const IDLE: Position = { generation: GEN, index: 3, offset: 708672 };

function running() {
  const clock = fixedClock("2026-11-25T10:00:00Z");
  const m = createLinkMachine({ clock, restartMs: 1000 });
  m.started();
  return { clock, m };
}

describe("lag", () => {
  test("a link idle after a burst across WAL segments: lag 0, ok, and no probe or restart in two idle minutes", () => {
    const { clock, m } = running();
    // The burst: the box runs ahead of the replica while the log reports each upload.
    let local: Position = { generation: GEN, index: 0, offset: 0 };
    for (const l of log) {
      clock.advance(50);
      if (l!.msg === "write wal segment") {
        const p = l!.attrs.position!.split(/[/:]/);
        local = { generation: GEN, index: Number.parseInt(p[1]!, 16), offset: Number(p[2]) + 4120 };
        m.answered(local);
      }
      m.line(l!);
    }
    m.answered(IDLE);
    expect(m.positions()).toEqual({ shipped: IDLE, local: IDLE });
    for (let s = 0; s < 120; s++) {
      clock.advance(1000);
      m.answered(IDLE);
      expect(m.probeDue(true)).toBeNull();
    }
    expect(m.health(300)).toMatchObject({ state: "ok", lag_seconds: 0, last_error: null, running: true });
    expect(m.restarts()).toBe(0);
  });

  test("control: a change HQ does not get ages; once shipped the lag is 0 again", () => {
    const { clock, m } = running();
    m.line(parseLogLine(`level=INFO msg="wal segment written" position=${GEN}/00000003:0 sz=708672`)!);
    m.answered(IDLE);
    expect(m.health(300).lag_seconds).toBe(0);
    const ahead = { ...IDLE, offset: IDLE.offset + 4120 };
    m.answered(ahead);
    clock.advance(7000);
    m.answered(ahead);
    expect(m.health(300).lag_seconds).toBe(7);
    m.line(parseLogLine(`level=INFO msg="wal segment written" position=${GEN}/00000003:708672 sz=4120`)!);
    expect(m.health(300)).toMatchObject({ state: "ok", lag_seconds: 0 });
  });

  test("a change in the next segment is after the end of the last one (offsets of two segments do not compare)", () => {
    const { clock, m } = running();
    m.line(parseLogLine(`level=INFO msg="wal segment written" position=${GEN}/00000002:0 sz=4449632`)!);
    const next = { generation: GEN, index: 3, offset: 4152 };
    m.answered(next);
    clock.advance(3000);
    expect(m.health(300).lag_seconds).toBe(3);
  });

  test("a new generation: what was pending of the old one is at HQ once the new one's snapshot is", () => {
    const { clock, m } = running();
    m.answered({ generation: "aaaa", index: 5, offset: 9000 });
    clock.advance(2000);
    m.answered({ generation: "bbbb", index: 0, offset: 4152 });
    expect(m.health(300).lag_seconds).toBe(2);
    m.line(parseLogLine(`level=INFO msg="snapshot written" position=bbbb/00000000:4152 sz=340`)!);
    expect(m.health(300).lag_seconds).toBe(0);
  });
});

describe("supervision", () => {
  test("behind, quiet and HQ answering: probed after 3 s, restarted after 20 s of no progress; HQ silent: down in plain words", () => {
    const { clock, m } = running();
    m.answered({ generation: GEN, index: 0, offset: 4152 });
    clock.advance(2000);
    expect(m.probeDue(true)).toBeNull();
    clock.advance(1500);
    const quiet = m.probeDue(true)!;
    expect(quiet).toBe(3500);
    expect(m.probed(true, quiet)).toBeNull();
    // HQ answered: probed again every 5 s, not sooner.
    clock.advance(4000);
    expect(m.probeDue(true)).toBeNull();
    clock.advance(1000);
    expect(m.probed(true, m.probeDue(true)!)).toBeNull();
    clock.advance(15_000);
    const q2 = m.probeDue(true)!;
    expect(q2).toBe(23_500);
    expect(m.probed(true, q2)).toBe("restart");
    // The next restart needs twice the patience.
    expect(m.exited(null, false)).toBe(1000);
    clock.advance(1000);
    m.started();
    expect(m.restarts()).toBe(1);
  });

  test("an outage seen by a probe: down in plain words, probed every second, and restarted as soon as HQ answers again", () => {
    const { clock, m } = running();
    m.answered({ generation: GEN, index: 0, offset: 4152 });
    clock.advance(3000);
    expect(m.probed(false, m.probeDue(true)!)).toBeNull();
    expect(m.health(300)).toMatchObject({ state: "down", last_error: "HQ's server is not answering" });
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      expect(m.probed(false, m.probeDue(true)!)).toBeNull();
    }
    clock.advance(1000);
    // Back after 9 s of quiet: far from the 20 s patience, yet Litestream's connection is gone.
    expect(m.probed(true, m.probeDue(true)!)).toBe("back");
    expect(m.exited(null, false)).toBe(1000);
  });

  test("control: Litestream that moved on by itself after the outage is left alone", () => {
    const { clock, m } = running();
    m.answered({ generation: GEN, index: 0, offset: 4152 });
    clock.advance(3000);
    expect(m.probed(false, m.probeDue(true)!)).toBeNull();
    clock.advance(1000);
    m.line(parseLogLine(`level=INFO msg="wal segment written" position=${GEN}/00000000:0 sz=4152`)!);
    m.answered({ generation: GEN, index: 0, offset: 8272 });
    clock.advance(3000);
    expect(m.probeDue(true)).toBeNull();
    clock.advance(1000);
    expect(m.probed(true, m.probeDue(true)!)).toBeNull();
  });

  test("exits back off 1 s doubling to 60 s; a run that lasted a minute starts again after 1 s; stopping never restarts", () => {
    const { clock, m } = running();
    const waits = [];
    for (let i = 0; i < 8; i++) {
      waits.push(m.exited(1, false));
      m.started();
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000, 60_000, 60_000]);
    clock.advance(61_000);
    expect(m.exited(1, false)).toBe(1000);
    expect(m.health(300)).toMatchObject({ state: "down", last_error: "Litestream stopped (exit 1); restarting" });
    m.started();
    expect(m.exited(0, true)).toBeNull();
    expect(m.phase()).toBe("stopped");
  });

  test("a restarted Litestream that ships nothing for 3 s is nudged once", () => {
    const { clock, m } = running();
    expect(m.answered(IDLE)).toBe(false);
    clock.advance(3500);
    expect(m.answered(IDLE)).toBe(true);
    expect(m.answered(IDLE)).toBe(false);
  });
});

describe("a segment torn at HQ", () => {
  const torn = parseLogLine(`level=ERROR msg="monitor error" error="cannot determine replica position: EOF"`)!;

  test("Litestream that cannot read the replica's newest segment three times running is to start a new generation, at once", () => {
    const { m } = running();
    m.line(torn);
    m.line(torn);
    expect(m.tornAtHq()).toBe(false);
    m.line(torn);
    expect(m.tornAtHq()).toBe(true);
    expect(m.exited(null, false)).toBe(1000);
    expect(m.takeTornAtHq()).toBe(true);
    // Asked once per exit.
    expect(m.takeTornAtHq()).toBe(false);
  });

  test("control: one EOF (a connection going away) and then progress is not a torn segment", () => {
    const { m } = running();
    m.line(torn);
    m.line(torn);
    m.line(parseLogLine(`level=INFO msg="wal segment written" position=${GEN}/00000000:0 sz=4152`)!);
    m.line(torn);
    expect(m.tornAtHq()).toBe(false);
    m.exited(1, false);
    expect(m.takeTornAtHq()).toBe(false);
  });
});
