// Litestream 0.3.13's log lines and metrics, parsed from output recorded from the real binary
// (testdata/record.ts: one write, an 8 s burst that crosses WAL segments, then idle).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { comparePositions, parseLogLine, parseMetrics, parsePosition, type Position, shadowPosition, shippedPosition } from "./litestream";

const data = (f: string) => readFileSync(join(import.meta.dir, "testdata", f), "utf8");
const log = data("litestream-burst.log").trim().split("\n");
const shadow = JSON.parse(data("shadow-wal.json")) as Record<
  "one_segment" | "idle_after_burst",
  { generation: string; files: { name: string; size: number }[] }
>;
const GEN = shadow.idle_after_burst.generation;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("log lines", () => {
  test("every recorded line parses: level, message and attributes, quoted values unquoted", () => {
    const lines = log.map(parseLogLine);
    expect(lines.every((l) => l !== null)).toBe(true);
    expect(lines[0]).toEqual({ time: expect.stringMatching(/^2026-/), level: "INFO", msg: "litestream", attrs: { version: "v0.3.13" } });
    const gen = lines.find((l) => l!.msg === "sync: new generation")!;
    expect(gen.attrs).toMatchObject({ generation: GEN, reason: "no generation exists" });
  });

  test("not a log line: null", () => {
    expect(parseLogLine("panic: runtime error")).toBeNull();
    expect(parseLogLine("")).toBeNull();
  });

  test("positions: generation / index in hex : offset", () => {
    expect(parsePosition(`${GEN}/0000000a:4152`)).toEqual({ generation: GEN, index: 10, offset: 4152 });
    expect(parsePosition("nonsense")).toBeNull();
    expect(comparePositions({ index: 3, offset: 708672 }, { index: 2, offset: 4449632 })).toBeGreaterThan(0);
  });

  test("what the replica has after each upload: a segment's start plus sz, each next upload starting there", () => {
    const shipped = log.map((l) => shippedPosition(parseLogLine(l)!)).filter((p): p is Position => p !== null);
    const starts = log
      .map(parseLogLine)
      .filter((l) => l!.msg === "write wal segment")
      .map((l) => parsePosition(l!.attrs.position)!);
    // Each upload starts where the last one ended, or at 0 of the next segment.
    const walEnds = log.map(parseLogLine).flatMap((l) => (l!.msg === "wal segment written" ? [shippedPosition(l!)!] : []));
    for (let i = 1; i < starts.length; i++) {
      const prev = walEnds[i - 1]!;
      const next = starts[i]!;
      expect(next.offset === prev.offset && next.index === prev.index ? true : next.index === prev.index + 1 && next.offset === 0).toBe(true);
    }
    // The segment changes are in the recording.
    expect(new Set(walEnds.map((p) => p.index)).size).toBeGreaterThan(2);
    // After the burst, the replica ends where the box's shadow WAL ends (and where the metrics say).
    const last = shipped[shipped.length - 1]!;
    const newest = shadow.idle_after_burst.files[shadow.idle_after_burst.files.length - 1]!;
    expect(last).toEqual({ generation: GEN, index: Number.parseInt(newest.name, 16), offset: newest.size });
    expect(parseMetrics(data("metrics-idle-after-burst.txt")).replica).toEqual({ index: last.index, offset: last.offset });
  });
});

describe("metrics", () => {
  test("one segment: the shadow WAL's bytes and the replica's offset agree", () => {
    const m = parseMetrics(data("metrics-one-segment.txt"));
    expect(m).toEqual({ shadowIndex: 0, shadowBytes: 28872, replica: { index: 0, offset: 28872 }, syncErrors: 0 });
  });

  test("after a segment change the shadow bytes count the kept older segment too: not an offset (the lag that never settled)", () => {
    const m = parseMetrics(data("metrics-idle-after-burst.txt"));
    const files = shadow.idle_after_burst.files;
    expect(m.shadowIndex).toBe(m.replica!.index);
    expect(m.shadowBytes).toBe(files.reduce((n, f) => n + f.size, 0));
    expect(m.shadowBytes).toBeGreaterThan(m.replica!.offset);
  });

  test("before any upload there is no replica position", () => {
    const text = data("metrics-one-segment.txt")
      .split("\n")
      .filter((l) => !l.startsWith("litestream_replica_wal_"))
      .join("\n");
    expect(parseMetrics(text).replica).toBeNull();
  });
});

describe("the box's position from its shadow WAL (Litestream's DB.Pos)", () => {
  /** A data folder with the recorded shadow WAL files (a WAL header with page size 4096, then zeros). */
  function metaDir(files: { name: string; size: number }[], generation = GEN) {
    const dir = mkdtempSync(join(tmpdir(), "ironbox-shadow-"));
    dirs.push(dir);
    const wal = join(dir, ".ironbox.db-litestream", "generations", generation, "wal");
    mkdirSync(wal, { recursive: true });
    writeFileSync(join(dir, ".ironbox.db-litestream", "generation"), `${generation}\n`);
    for (const f of files) {
      const b = Buffer.alloc(f.size);
      if (f.size >= 32) b.writeUInt32BE(4096, 8);
      writeFileSync(join(wal, f.name), b);
    }
    return join(dir, "ironbox.db");
  }

  test("idle after the burst: the newest segment and its size, level with what the replica has", () => {
    expect(shadowPosition(metaDir(shadow.idle_after_burst.files))).toEqual({ generation: GEN, index: 3, offset: 708672 });
    expect(shadowPosition(metaDir(shadow.one_segment.files))).toEqual({ generation: GEN, index: 0, offset: 28872 });
  });

  test("a frame half written counts only up to the last whole frame", () => {
    expect(shadowPosition(metaDir([{ name: "00000000.wal", size: 32 + 4120 * 2 + 100 }]))).toEqual({ generation: GEN, index: 0, offset: 32 + 4120 * 2 });
  });

  test("no generation yet: null", () => {
    const dir = mkdtempSync(join(tmpdir(), "ironbox-shadow-"));
    dirs.push(dir);
    expect(shadowPosition(join(dir, "ironbox.db"))).toBeNull();
  });
});
