/**
 * Issue 33, "HQ serves 50 busy shops": quick_check at every restore and the full check once a
 * day per site, rounds that restore several sites at once, and new WAL segments applied to the
 * kept copy instead of a whole restore. Small shop databases shipped by a real
 * `litestream replicate`, restored by HQ's chain service with the real `litestream restore`.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { comparePositions, LITESTREAM_BIN, type Position, shadowPosition } from "../../../drivers/replication/litestream";
import { lz4Decode } from "../../../drivers/replication/lz4";
import { fixedClock } from "../../platform/clock";
import { until } from "../../test/poll";
import { replicate } from "../../test/chainSites";
import { createReportService } from "../reports/service";
import { walOfIndex } from "./apply";
import { planApply } from "./incremental";
import { createChainService } from "./service";

const NOW = "2026-11-22T09:00:00Z";
const tmp = mkdtempSync(join(tmpdir(), "ironbox-hq-scale-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function chainOf(storage: string, dataDir: string, o: { parallel?: number; litestream?: string; clock?: ReturnType<typeof fixedClock> } = {}) {
  const clock = o.clock ?? fixedClock(NOW);
  return createChainService({
    hq: { sites: [], storage, restoreEverySec: 0, sftpKey: null, restoreParallel: o.parallel ?? 2 },
    dataDir,
    clock,
    reports: createReportService({ db: { url: `file:${join(dataDir, "none.db")}` }, clock }),
    log: () => {},
    ...(o.litestream ? { litestream: o.litestream } : {}),
  });
}

/** A small shop database in WAL mode: t(a, b) with an index on b, b = 0..99. */
function shopDb(file: string): Database {
  const db = new Database(file);
  db.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (a INTEGER PRIMARY KEY, b INT, pad BLOB); CREATE INDEX tb ON t (b)");
  const ins = db.prepare("INSERT INTO t (b) VALUES (?)");
  db.transaction(() => {
    for (let i = 0; i < 100; i++) ins.run(i);
  })();
  return db;
}

const rows = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return {
      rows: db.query("SELECT a, b, hex(pad) FROM t ORDER BY a").values(),
      integrity: (db.query("PRAGMA integrity_check").values()[0] as [string])[0],
    };
  } finally {
    db.close();
  }
};

/** What a whole `litestream restore` of the replica holds now. */
async function restoredWhole(replica: string): Promise<ReturnType<typeof rows>> {
  const out = join(tmp, `whole-${Math.random().toString(36).slice(2)}.db`);
  expect(await Bun.spawn([LITESTREAM_BIN, "restore", "-o", out, `file://${replica}`], { stderr: "ignore" }).exited).toBe(0);
  return rows(out);
}

const walFiles = (replica: string) => {
  const gens = join(replica, "generations");
  return readdirSync(gens)
    .flatMap((g) => (existsSync(join(gens, g, "wal")) ? readdirSync(join(gens, g, "wal")).map((f) => join(gens, g, "wal", f)) : []))
    .sort();
};

const hex = (n: number) => n.toString(16).padStart(8, "0");
const generations = (replica: string) => (existsSync(join(replica, "generations")) ? readdirSync(join(replica, "generations")) : []);

/** Whether the replica holds everything up to `pos` (its segment of that index ends there or later). */
function holds(replica: string, pos: Position): boolean {
  const wal = join(replica, "generations", pos.generation, "wal");
  const mine = existsSync(wal) ? readdirSync(wal).filter((f) => f.startsWith(`${hex(pos.index)}_`)) : [];
  const end = (f: string) => {
    try {
      return Number.parseInt(f.slice(9, 17), 16) + lz4Decode(readFileSync(join(wal, f))).length;
    } catch {
      return 0; // a segment still being written
    }
  };
  return mine.some((f) => end(f) >= pos.offset);
}

/**
 * Writes to a replicated shop database and waits until the write is in the replica: first the
 * shop's Litestream takes it into its shadow WAL (its position moves), then a segment at HQ
 * reaches that position. (A new WAL segment file alone is not enough: the one that opens a
 * new index holds only the WAL header, the write comes in the next.)
 */
async function ship(file: string, replica: string, write: () => void): Promise<void> {
  const before = shadowPosition(file);
  write();
  const pos = await until(
    () => {
      const p = shadowPosition(file);
      return p && (!before || p.generation !== before.generation || comparePositions(p, before) > 0) ? p : null;
    },
    { what: "the write in the shadow WAL", ms: 20_000 },
  );
  await until(() => holds(replica, pos), { what: "the write shipped", ms: 20_000 });
}

/**
 * Starts a replication that must open a new generation (the shop's Litestream state removed
 * first); returns it running once shipped, the older generations removed (as retention does
 * in time) so that every restore takes the new one.
 */
async function newGeneration(file: string, replica: string) {
  const old = generations(replica);
  const before = old.length;
  rmSync(join(tmp, `.${file.split("/").pop()}-litestream`), { recursive: true, force: true });
  const rep = await replicate(file, replica);
  await until(() => generations(replica).length > before && generations(replica).every((g) => existsSync(join(replica, "generations", g, "snapshots"))), {
    what: "a new generation's snapshot",
    ms: 20_000,
  });
  await until(() => walFiles(replica).some((f) => !old.some((g) => f.includes(g))), { what: "the new generation's first WAL segment", ms: 20_000 });
  for (const g of old) rmSync(join(replica, "generations", g), { recursive: true, force: true });
  return rep;
}

describe("the check: quick at every restore, full once a day per site", () => {
  test("a copy whose index misses a row passes the day's later quick checks; the next day's full check refuses it", async () => {
    const storage = join(tmp, "daily");
    const file = join(tmp, "daily.db");
    mkdirSync(storage);
    shopDb(file).close();
    await (await replicate(file, join(storage, "daily"))).stop(0);
    const clock = fixedClock(NOW);
    const chain = chainOf(storage, join(tmp, "hq-daily"), { clock });
    expect(await chain.restoreNow("daily")).toMatchObject({ last_error: null, has_copy: true, restores: 1, last_full_check_at: NOW.replace("Z", ".000Z") });

    // The shop's index entry (b=50, row 51) rewritten to b=51 in place: still in key order, so
    // the b-tree is sound (quick_check: ok) but the index no longer matches its row (the full
    // check's complaint). Shipped as a new generation (a snapshot of the whole file).
    const db = new Database(file);
    const [root, pageSize] = [
      (db.query("SELECT rootpage FROM sqlite_schema WHERE name = 'tb'").values()[0] as [number])[0],
      (db.query("PRAGMA page_size").values()[0] as [number])[0],
    ];
    // Every page in the file first: a WAL left beside it would put the index page back.
    expect(db.query("PRAGMA wal_checkpoint(TRUNCATE)").values()).toEqual([[0, 0, 0]]);
    db.close();
    expect(existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0).toBe(0);
    const bytes = readFileSync(file);
    const page = bytes.subarray((root - 1) * pageSize, root * pageSize);
    const at = page.indexOf(Buffer.from([0x03, 0x01, 0x01, 50, 51]));
    expect(at).toBeGreaterThan(0);
    page[at + 3] = 51;
    writeFileSync(file, bytes);
    const shop = new Database(file, { readonly: true });
    expect(shop.query("PRAGMA quick_check").values()).toEqual([["ok"]]);
    expect((shop.query("PRAGMA integrity_check").values()[0] as [string])[0]).not.toBe("ok");
    shop.close();
    await (await newGeneration(file, join(storage, "daily"))).stop();

    clock.advance(3600_000);
    const later = await chain.restoreNow("daily");
    expect(later).toMatchObject({ last_error: null, restores: 2, last_full_check_at: NOW.replace("Z", ".000Z") });
    expect(rows(join(tmp, "hq-daily", "sites", "daily.db")).integrity).not.toBe("ok");

    clock.advance(24 * 3600_000);
    const nextDay = await chain.restoreNow("daily");
    expect(nextDay.last_error).toMatch(/failed its integrity check.*previous copy stays/);
    expect(nextDay).toMatchObject({ restores: 2, last_full_check_at: NOW.replace("Z", ".000Z") });
  }, 120_000);
});

describe("a round restores IRONBOX_HQ_RESTORE_PARALLEL sites at once", () => {
  // The real Litestream behind a stand-in whose restores note how many restores are under way
  // (a file each), waiting up to `wait` tenths of a second for a second one to start.
  const cue = join(tmp, "cue");
  const stand = join(tmp, "litestream-overlap.sh");
  const storage = join(tmp, "overlap");

  test("two sites restore at the same time with 2; one after the other with 1", async () => {
    mkdirSync(join(cue, "active"), { recursive: true });
    writeFileSync(
      stand,
      `#!/bin/sh
[ "$1" = "restore" ] || exec "${LITESTREAM_BIN}" "$@"
touch "${cue}/active/$$"
n=0; wait=$(cat "${cue}/wait")
while [ $n -lt $wait ]; do
  c=$(ls "${cue}/active" | wc -l); echo $c >> "${cue}/seen"
  [ $c -ge 2 ] && break
  sleep 0.1; n=$((n+1))
done
"${LITESTREAM_BIN}" "$@"; code=$?
rm -f "${cue}/active/$$"
exit $code
`,
    );
    chmodSync(stand, 0o755);
    mkdirSync(storage);
    for (const site of ["east", "west"]) {
      shopDb(join(tmp, `${site}.db`)).close();
      await (await replicate(join(tmp, `${site}.db`), join(storage, site))).stop(0);
    }
    const most = async (parallel: number, wait: number) => {
      writeFileSync(join(cue, "seen"), "");
      writeFileSync(join(cue, "wait"), String(wait));
      const chain = chainOf(storage, join(tmp, `hq-overlap-${parallel}`), { parallel, litestream: stand });
      await chain.restoreAll();
      expect(chain.list().map((s) => [s.site, s.restores, s.last_error])).toEqual([
        ["east", 1, null],
        ["west", 1, null],
      ]);
      return Math.max(...readFileSync(join(cue, "seen"), "utf8").split("\n").filter(Boolean).map(Number));
    };
    expect(await most(2, 300)).toBe(2);
    // Control: one at a time, the second restore never sees the first (each waits 2 s for nothing).
    expect(await most(1, 20)).toBe(1);
  }, 120_000);
});

describe("new WAL segments applied to the kept copy", () => {
  test("a round applies what a site shipped since its copy: the same rows as a whole restore; a new generation or a torn segment restores whole", async () => {
    const storage = join(tmp, "inc");
    const replica = join(storage, "inc");
    const file = join(tmp, "inc.db");
    mkdirSync(storage);
    const db = shopDb(file);
    let rep = await replicate(file, replica);
    const chain = chainOf(storage, join(tmp, "hq-inc"));
    const copy = join(tmp, "hq-inc", "sites", "inc.db");
    const state = () => chain.list()[0]!;
    const shipped = (write: () => void) => ship(file, replica, write);
    const pad = db.prepare("INSERT INTO t (b, pad) VALUES (?, randomblob(3000))");

    await chain.restoreAll();
    expect(state()).toMatchObject({ restores: 1, applied_restores: 0, last_error: null });

    // Small writes, then enough pages (5,000) for Litestream to checkpoint and go on in a new WAL index.
    await shipped(() => db.run("UPDATE t SET b = b + 1000 WHERE a % 7 = 0"));
    await chain.restoreAll();
    expect(state()).toMatchObject({ restores: 2, applied_restores: 1, last_error: null });
    expect(rows(copy)).toEqual(await restoredWhole(replica));
    const indexes = () => new Set(walFiles(replica).map((f) => f.split("/").pop()!.slice(0, 8))).size;
    const firstIndexes = indexes();
    for (let i = 0; i < 5 && indexes() === firstIndexes; i++) await shipped(() => db.transaction(() => [...Array(1000)].forEach((_, j) => pad.run(j)))());
    await shipped(() => db.run("DELETE FROM t WHERE a % 3 = 0"));
    expect(indexes()).toBeGreaterThan(firstIndexes);
    await chain.restoreAll();
    expect(state()).toMatchObject({ restores: 3, applied_restores: 2, last_error: null });
    const applied = rows(copy);
    expect(applied.integrity).toBe("ok");
    expect(applied).toEqual(await restoredWhole(replica));

    // A new generation (the shop's Litestream lost track of its WAL): a whole restore.
    await rep.stop(0);
    db.run("INSERT INTO t (b) VALUES (-1)");
    rep = await newGeneration(file, replica);
    await chain.restoreAll();
    expect(state()).toMatchObject({ restores: 4, applied_restores: 2, last_error: null });
    expect(rows(copy)).toEqual(await restoredWhole(replica));

    // Applying resumes on the new generation; then its newest segment torn (a box killed mid-upload).
    await shipped(() => db.run("INSERT INTO t (b) VALUES (-2)"));
    await chain.restoreAll();
    expect(state()).toMatchObject({ restores: 5, applied_restores: 3, last_error: null });
    const beforeTorn = rows(copy);
    await shipped(() => db.run("INSERT INTO t (b) VALUES (-3)"));
    await rep.stop(0);
    db.close();
    const newest = walFiles(replica).pop()!;
    truncateSync(newest, Math.floor(statSync(newest).size / 2));
    await chain.restoreAll();
    const torn = state();
    expect(torn).toMatchObject({ restores: 6, applied_restores: 3 });
    expect(torn.last_error).toMatch(/newest WAL segment at HQ cannot be read/);
    expect(rows(copy)).toEqual(beforeTorn);
  }, 240_000);

  test("a segment missing from the listing or the folder is found before anything is applied", () => {
    const head = "replica  generation        index  offset  size  created";
    const line = (i: number, o: number) => `file     abcdef0123456789  ${i}      ${o}  100  2026-11-22T09:00:00Z`;
    const before = [head, line(3, 0), line(3, 4152)].join("\n");
    const plan = (now: string[]) =>
      planApply({
        url: "file:///srv/x",
        position: { generation: "abcdef0123456789", index: 3, generations: ["abcdef0123456789"] },
        before,
        now: [head, ...now].join("\n"),
      });
    expect(plan([line(3, 0), line(3, 4152), line(4, 0)])).toMatchObject({ segments: [{ index: 3, offset: 0 }, { index: 3 }, { index: 4 }] });
    expect(plan([line(3, 0), line(3, 4152), line(5, 0)])).toEqual({ why: "a WAL segment is missing before index 5" });
    expect(plan([line(3, 4152), line(4, 0)])).toEqual({ why: "the replica no longer starts WAL index 3 at offset 0" });
    expect(plan([line(3, 0), line(3, 4152), line(4, 0).replace("abcdef", "fedcba")])).toEqual({ why: "the site started a new generation" });
    // A segment gone between two listed ones: the WAL would have a hole; it is refused.
    const seg = join(tmp, "seg.lz4");
    writeFileSync(seg, Bun.spawnSync(["sh", "-c", "head -c 4152 /dev/zero | lz4 -c"]).stdout);
    expect(walOfIndex([{ index: 3, offset: 0, path: seg }]).length).toBe(4152);
    expect(() =>
      walOfIndex([
        { index: 3, offset: 0, path: seg },
        { index: 3, offset: 8304, path: seg },
      ]),
    ).toThrow(/missing before offset 8304/);
  });
});
