import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, symlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { manualDir, nightlyDir } from "../../../db/backups";
import { openDatabase } from "../../../db/client";
import { fixedClock } from "../../platform/clock";
import { loadConfig } from "../../platform/config";
import type { EmployeeCaller } from "../auth/caller";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import type { LinkHealth } from "../hqlink/model";
import { createNightlyBackups } from "./backups";
import { backupAttention } from "./service";

/**
 * Nightly backups (issue 22): a box without the HQ link still has a checked copy of its
 * database every night, on its data disk and on a second disk when one is set; the newest
 * seven are kept in each; the health panel says when the newest is old, when a copy failed,
 * and when there is none and no link either.
 */
let box: TestBox;
let hqAdmin: string;
/** A stand-in mount point (the box's are /srv, /mnt and /media). */
const DISKS = mkdtempSync(join(tmpdir(), "ironbox-disks-"));
beforeAll(async () => {
  box = await testBox({ demo: true, diskRoots: [DISKS] });
  hqAdmin = await box.employeeToken(ADMIN.pin);
}, 60_000);
afterAll(() => {
  for (const d of opened) d.close();
  box.close();
  rmSync(DISKS, { recursive: true, force: true });
});

const count = (file: string, table: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return (db.query(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};
/** A box database of its own for a scheduler under test (a copy of the demo box's): its settings are its own. */
const opened: Awaited<ReturnType<typeof openDatabase>>[] = [];
async function dbCopy(name: string) {
  mkdirSync(join(box.dir, name));
  const file = join(box.dir, name, "ironbox.db");
  await box.database.client.executeMultiple(`VACUUM INTO '${file}'`);
  const database = await openDatabase(`file:${file}`);
  opened.push(database);
  return { file, db: database.db };
}

test("the scheduler takes a copy when the box has none, then one a night in the shop's night hours, or as soon as one is overdue", async () => {
  const clock = fixedClock("2026-11-22T12:00:00Z"); // 13:00 in Malta
  const { file: dbFile, db } = await dbCopy("sched");
  const backups = createNightlyBackups({ db, clock, dbFile, version: "1.2.3", envDir: null, log: () => {} });
  const taken: string[] = [];
  const tick = async (at: string) => {
    clock.set(at);
    const r = await backups.tick();
    if (r) taken.push(at);
    return r;
  };
  const first = await tick("2026-11-22T12:00:00Z");
  expect(first).toMatchObject({ ok: true, error: null, at: "2026-11-22T12:00:00.000Z", copies: [] });
  expect(first!.file).toBe(join(nightlyDir(dbFile), "ironbox-1.2.3-20261122T120000Z.db"));
  await tick("2026-11-22T12:10:00Z"); // just taken
  await tick("2026-11-22T23:30:00Z"); // 00:30 in Malta: not the night window yet
  await tick("2026-11-23T01:10:00Z"); // 02:10: the night's copy
  await tick("2026-11-23T02:40:00Z"); // 03:40: tonight's is taken
  await tick("2026-11-23T13:00:00Z"); // daytime, 12 h old
  // Off through the next night: the copy comes as soon as it is overdue (26 h), day or not.
  await tick("2026-11-25T10:00:00Z");
  await tick("2026-11-25T10:30:00Z");
  await tick("2026-11-26T01:00:00Z"); // 02:00 in Malta, 15 h on
  expect(taken).toEqual(["2026-11-22T12:00:00Z", "2026-11-23T01:10:00Z", "2026-11-25T10:00:00Z", "2026-11-26T01:00:00Z"]);
  expect(readdirSync(nightlyDir(dbFile)).sort()).toEqual([
    "ironbox-1.2.3-20261122T120000Z.db",
    "ironbox-1.2.3-20261123T011000Z.db",
    "ironbox-1.2.3-20261125T100000Z.db",
    "ironbox-1.2.3-20261126T010000Z.db",
  ]);
  expect(await backups.lastRun()).toMatchObject({ ok: true, at: "2026-11-26T01:00:00.000Z" });
}, 30_000);

test("each copy is whole and checked, on both disks; the newest seven are kept in each", async () => {
  const clock = fixedClock("2026-11-01T01:30:00Z");
  const { file: dbFile, db } = await dbCopy("keep");
  const second = join(box.dir, "usb-stick");
  mkdirSync(second);
  const backups = createNightlyBackups({ db, clock, dbFile, version: "1.2.3", envDir: second, log: () => {} });
  for (let night = 0; night < 9; night++) {
    const r = await backups.runNow();
    expect(r.ok).toBe(true);
    expect(r.copies).toEqual([{ dir: second, file: join(second, `ironbox-1.2.3-202611${String(night + 1).padStart(2, "0")}T013000Z.db`), error: null }]);
    clock.advance(86_400_000);
  }
  const kept = ["03", "04", "05", "06", "07", "08", "09"].map((d) => `ironbox-1.2.3-202611${d}T013000Z.db`);
  expect(readdirSync(nightlyDir(dbFile)).sort()).toEqual(kept);
  expect(readdirSync(second).sort()).toEqual(kept); // no partial file left either
  // The copy is the database: every ticket, and SQLite's own check passes.
  const copy = join(second, kept.at(-1)!);
  expect(count(copy, "tickets")).toBe(count(dbFile, "tickets"));
  expect(count(copy, "tickets")).toBeGreaterThan(0);
  const check = new Database(copy, { readonly: true });
  expect(check.query("PRAGMA integrity_check").values()).toEqual([["ok"]]);
  check.close();
}, 60_000);

test("a damaged database gives no copy under a copy's name, and the panel says the backup failed; an unplugged second disk is named", async () => {
  const clock = fixedClock("2026-11-22T01:30:00Z");
  const dbFile = join(box.dir, "damaged", "ironbox.db");
  mkdirSync(join(box.dir, "damaged"));
  const db = createClient({ url: `file:${dbFile}` });
  await db.executeMultiple("CREATE TABLE t (x TEXT); CREATE INDEX t_x ON t (x)");
  await db.batch(Array.from({ length: 2000 }, (_, i) => ({ sql: "INSERT INTO t VALUES (?)", args: [`row ${i} ${"x".repeat(50)}`] })));
  db.close();
  const fd = openSync(dbFile, "r+");
  writeSync(fd, Buffer.alloc(2000, 0x41), 0, 2000, 4096 * 30 + 100);
  closeSync(fd);
  const logged: string[] = [];
  const settings = await dbCopy("damaged-settings"); // the damaged file has no settings table
  const backups = createNightlyBackups({ db: settings.db, clock, dbFile, version: "1.2.3", envDir: null, log: (m) => logged.push(m) });
  const r = await backups.runNow();
  expect(r.ok).toBe(false);
  expect(r.error).toMatch(/integrity check|malformed|corrupt/i);
  expect(existsSync(nightlyDir(dbFile)) ? readdirSync(nightlyDir(dbFile)) : []).toEqual([]);
  expect(logged[0]).toContain("Backup failed");
  // A failed run is retried an hour on, not at every look.
  clock.advance(30 * 60_000);
  expect(await backups.tick()).toBeNull();
  clock.advance(31 * 60_000);
  expect((await backups.tick())?.ok).toBe(false);

  const unplugged = await dbCopy("unplugged");
  const good = createNightlyBackups({ db: unplugged.db, clock, dbFile: unplugged.file, version: "1.2.3", envDir: "/mnt/no-such-stick", log: () => {} });
  const u = await good.runNow();
  expect(u.ok).toBe(true); // the data disk's copy is there
  expect(u.copies).toEqual([{ dir: "/mnt/no-such-stick", file: null, error: "the folder is missing (is the disk plugged in and mounted?)" }]);
}, 30_000);

const OFF: LinkHealth = { state: "off", lag_seconds: null, last_shipped_at: null, last_error: null, warn_after_seconds: 300 };
const OK: LinkHealth = { ...OFF, state: "ok", lag_seconds: 1 };
test("warnings: no copy and no link (once the first had time to be taken), the newest over 48 hours old, a failed run or second copy", () => {
  const startedAt = new Date("2026-11-22T09:00:00Z");
  const at = (iso: string) => new Date(iso);
  const base = { startedAt, run: null, local: true };
  const msgs = (a: Partial<Parameters<typeof backupAttention>[0]>) =>
    backupAttention({ ...base, now: at("2026-11-22T09:20:00Z"), backup: null, link: OFF, ...a }).map((x) => x.message);
  expect(msgs({})).toEqual(["This box has no backup and no link to head-quarters: one dead disk would lose its data"]);
  expect(msgs({ now: at("2026-11-22T09:05:00Z") })).toEqual([]); // just started: the first copy is minutes away
  expect(msgs({ link: OK })).toEqual([]); // HQ has the data
  expect(msgs({ local: false })).toEqual([]); // a database server's backups are its own
  expect(msgs({ backup: { at: "2026-11-20T09:21:00Z" } })).toEqual([]); // 47 h 59 min
  expect(msgs({ backup: { at: "2026-11-20T09:19:00Z" }, link: OK })).toEqual(["The newest backup is 2 days old (20/11/2026 10:19): check the nightly backup"]);
  expect(
    msgs({
      backup: { at: "2026-11-22T01:30:00Z" },
      run: {
        at: "2026-11-22T01:30:00Z",
        ok: true,
        error: null,
        copies: [{ dir: "/media/usb", error: "the folder is missing (is the disk plugged in and mounted?)" }],
      },
    }),
  ).toEqual(["The backup of 22/11/2026 02:30 was not copied to /media/usb: the folder is missing (is the disk plugged in and mounted?)"]);
  expect(msgs({ backup: { at: "2026-11-21T01:30:00Z" }, run: { at: "2026-11-22T01:30:00Z", ok: false, error: "disk full", copies: [] } })).toEqual([
    "The backup of 22/11/2026 02:30 failed: disk full",
  ]);
});

test("the box's backup folder: HQ staff set an existing folder on a mounted disk; a run now copies there and the panel shows it", async () => {
  const agent = await box.agentToken("birkirkara", "shop-demo-2026");
  const shopAdmin = await box.employeeToken(5555, agent);
  const put = (token: string, dir: string | null) => box.call("PUT", "/api/v1/box/backup", { token, body: { dir } });
  expect((await put(shopAdmin, join(DISKS, "stick"))).status).toBe(403); // the whole database would go there
  let r = await put(hqAdmin, "/etc/ironbox");
  expect(r.status).toBe(422);
  expect(r.json.message).toContain("dir: a backup folder must be under /srv, /mnt, /media");
  r = await put(hqAdmin, join(DISKS, "stick"));
  expect(r.status).toBe(422);
  expect(r.json.message).toContain("is not a folder on this box (is the disk plugged in and mounted?)");
  // A link is not a folder: the box never writes through one it did not choose.
  mkdirSync(join(DISKS, "stick"));
  symlinkSync(join(DISKS, "stick"), join(DISKS, "stick-link"));
  expect((await put(hqAdmin, join(DISKS, "stick-link"))).status).toBe(422);
  r = await put(hqAdmin, join(DISKS, "stick"));
  expect(r.status).toBe(200);
  expect(r.json.data.backups).toMatchObject({ second_dir: join(DISKS, "stick"), second_dir_from: "settings", keep: 7, last_run: null });

  expect((await box.call("POST", "/api/v1/box/backup", { token: await box.employeeToken(2222) })).status).toBe(403); // a manager
  r = await box.call("POST", "/api/v1/box/backup", { token: shopAdmin });
  expect(r.status).toBe(200);
  const h = r.json.data;
  expect(h.backup).toMatchObject({ kind: "manual", at: box.clock.now().toISOString() });
  expect(h.backups.last_run).toMatchObject({ ok: true, error: null, copies: [{ dir: join(DISKS, "stick", "manual"), ok: true, error: null }] });
  // A copy by hand goes to the folder's manual/, apart from the nightly copies.
  expect(readdirSync(join(DISKS, "stick"))).toEqual(["manual"]);
  expect(readdirSync(join(DISKS, "stick", "manual"))).toEqual([h.backup.file]);
  expect(h.needs_attention.filter((a: { what: string }) => a.what === "backup")).toEqual([]);
  expect((await put(hqAdmin, null)).json.data.backups.second_dir).toBeNull();
  const audit = await box.database.client.execute("SELECT detail FROM audit_log WHERE entity = 'backup_dir' ORDER BY id");
  expect(audit.rows.map((x) => JSON.parse(String(x.detail)).dir)).toEqual([
    [null, join(DISKS, "stick")],
    [join(DISKS, "stick"), null],
  ]);
}, 30_000);

test("a backup folder under /tmp is refused with the rule's message (the unit's PrivateTmp empties it at every restart), from the screen and the environment", async () => {
  const { db, file } = await dbCopy("tmp-rule");
  const backups = createNightlyBackups({ db, clock: fixedClock("2026-11-22T09:00:00Z"), dbFile: file, version: "1.2.3", envDir: null, log: () => {} });
  const hq = {
    kind: "employee",
    jti: "t",
    agent: { id: 1, name: "HQ", is_hq: true },
    employee: { id: 1, full_name: "A", role: "admin", hq: true },
  } as EmployeeCaller;
  const inTmp = mkdtempSync(join(tmpdir(), "ironbox-stick-"));
  try {
    await expect(backups.saveSecondDir(hq, { dir: inTmp })).rejects.toThrow(
      "dir: a backup folder must be under /srv, /mnt, /media (a second disk or USB stick)",
    );
    expect(await backups.secondDir()).toEqual({ dir: null, from: null });
  } finally {
    rmSync(inTmp, { recursive: true, force: true });
  }
  expect(() => loadConfig({ IRONBOX_DATA_DIR: box.dir, IRONBOX_BACKUP_DIR: "/tmp/ironbox-backups" })).toThrow(
    "IRONBOX_BACKUP_DIR must be under /srv, /mnt, /media (a second disk or USB stick): /tmp/ironbox-backups",
  );
  expect(loadConfig({ IRONBOX_DATA_DIR: box.dir, IRONBOX_BACKUP_DIR: "/media/usb/ironbox" }).backupDir).toBe("/media/usb/ironbox");
});

test("Back up now never pushes a nightly copy out, and a second press within ten minutes is refused", async () => {
  const dbFile = box.database.file!;
  // A week of nightly copies (as the scheduler leaves them).
  const clock = fixedClock("2026-11-10T01:30:00Z");
  const nightly = createNightlyBackups({ db: box.database.db, clock, dbFile, version: "1.2.3", envDir: null, log: () => {} });
  rmSync(nightlyDir(dbFile), { recursive: true, force: true });
  rmSync(manualDir(dbFile), { recursive: true, force: true });
  for (let night = 0; night < 7; night++) {
    expect((await nightly.runNow()).ok).toBe(true);
    clock.advance(86_400_000);
  }
  const week = readdirSync(nightlyDir(dbFile)).sort();
  expect(week.length).toBe(7);

  box.clock.advance(60 * 60_000); // the test before pressed it
  // A shop admin's fresh session each time (minutes pass between presses: an idle one would end).
  const press = async () =>
    box.call("POST", "/api/v1/box/backup", { token: await box.employeeToken(5555, await box.agentToken("birkirkara", "shop-demo-2026")) });
  let r = await press();
  expect(r.status).toBe(200);
  r = await press(); // eight presses in ten seconds: the second is refused
  expect(r.status).toBe(429);
  expect(r.json.message).toBe("A backup was taken by hand less than 10 minutes ago: try again in 10 minutes");
  box.clock.advance(9 * 60_000);
  expect((await press()).json.message).toBe("A backup was taken by hand less than 10 minutes ago: try again in 1 minute");
  // Pressed again and again, ten minutes apart: the nightly week is all there; the newest 3 by hand are kept.
  for (let i = 0; i < 5; i++) {
    box.clock.advance(10 * 60_000);
    expect((await press()).status).toBe(200);
  }
  expect(readdirSync(nightlyDir(dbFile)).sort()).toEqual(week);
  expect(readdirSync(manualDir(dbFile)).length).toBe(3);
}, 60_000);
