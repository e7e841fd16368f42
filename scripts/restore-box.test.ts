import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { backupName } from "../db/backups";
import { SEQUENCE_GAP_PER_DAY, sequenceGap } from "../db/sequences";
import { type TestBox, testBox } from "../appliance/test/harness";

/**
 * scripts/restore-box.sh --from-backup: a box restored from one of its own nightly copies (on
 * the USB stick, or its backups/nightly folder). Its id sequences move on past anything the
 * dead box may have printed after the copy (issue 23), and run as root on the service user's
 * data folder it acts as that user, following none of the links that user can plant (issue 22).
 */
const REPO = resolve(import.meta.dir, "..");
const SERVICE = 4242;
let box: TestBox;
let dir: string;
let stick: string;
let copyName: string;
/** The highest ticket and item ids the dead box issued: after the copy, labels printed, then it died. */
let printed: { tickets: number; items: number };

const q = (file: string, sql: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.query(sql).get() as Record<string, number>;
  } finally {
    db.close();
  }
};
/** A new row in `table` as the restored box would add one: a copy of its last row with the next id. */
function addRow(file: string, table: string) {
  const db = new Database(file);
  try {
    const cols = (db.query(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name).filter((c) => c !== "id");
    const list = cols.map((c) => `"${c}"`).join(", ");
    // A new row has no payment rows yet: its total_paid is 0 (the database refuses another; the
    // newest demo ticket is paid, on account, since issue 34).
    const values = cols.map((c) => (c === "total_paid" ? "0" : `"${c}"`)).join(", ");
    return Number((db.query(`INSERT INTO ${table} (${list}) SELECT ${values} FROM ${table} ORDER BY id DESC LIMIT 1 RETURNING id`).get() as { id: number }).id);
  } finally {
    db.close();
  }
}
const restore = async (...args: string[]) => {
  const p = Bun.spawn(["sh", join(REPO, "scripts/restore-box.sh"), ...args], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out: `${out}${err}` };
};

beforeAll(async () => {
  box = await testBox({ demo: true });
  dir = mkdtempSync(join(tmpdir(), "ironbox-restore-"));
  chmodSync(dir, 0o755); // the service user reaches the stick and its data folder
  stick = join(dir, "usb-stick");
  mkdirSync(stick, { mode: 0o755 });
  // Last night's copy, as the nightly backup names it (taken an hour ago).
  copyName = backupName("1.0.6", new Date(Date.now() - 3_600_000));
  await box.database.client.executeMultiple(`VACUUM INTO '${join(stick, copyName)}'`);
  chmodSync(join(stick, copyName), 0o644);
  // The day goes on: tickets and items acknowledged, their labels printed; then the disk dies.
  for (let i = 0; i < 8; i++) addRow(box.database.file!, "tickets");
  for (let i = 0; i < 20; i++) addRow(box.database.file!, "ticket_sub_categories");
  printed = {
    tickets: q(box.database.file!, "SELECT max(id) AS n FROM tickets").n!,
    items: q(box.database.file!, "SELECT max(id) AS n FROM ticket_sub_categories").n!,
  };
}, 60_000);
afterAll(() => {
  box.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the gap: ten thousand ids a day the copy may be behind, at least one day", () => {
  expect([sequenceGap(null), sequenceGap(0), sequenceGap(3_600_000), sequenceGap(36 * 3_600_000)]).toEqual([10_000, 10_000, 10_000, 20_000]);
});

test("restored from the newest copy on the stick: checked, and no ticket or item id the dead box may have printed is given again", async () => {
  const data = join(dir, "new-box");
  const r = await restore("--from-backup", stick, "--data", data);
  expect(r.out).toMatch(new RegExp(`restored \\d+ MB from ${join(stick, copyName)} \\(taken .*\\) in [\\d.]+ s; integrity ok`));
  expect(r.code).toBe(0);
  const copied = {
    tickets: q(join(stick, copyName), "SELECT max(id) AS n FROM tickets").n!,
    items: q(join(stick, copyName), "SELECT max(id) AS n FROM ticket_sub_categories").n!,
  };
  expect(copied.tickets).toBe(printed.tickets - 8); // the copy is behind what was printed
  expect(r.out).toContain(
    `ids move on by ${SEQUENCE_GAP_PER_DAY} so none the box may have issued after this copy is given again: tickets from ${copied.tickets + 1} to ${copied.tickets + 1 + SEQUENCE_GAP_PER_DAY}`,
  );
  expect(r.out).toContain(`items from ${copied.items + 1} to ${copied.items + 1 + SEQUENCE_GAP_PER_DAY}`);
  const file = join(data, "ironbox.db");
  expect(q(file, "PRAGMA integrity_check") as unknown).toEqual({ integrity_check: "ok" });
  // The next ticket and item the restored box issues are past every printed one.
  const ticket = addRow(file, "tickets");
  const item = addRow(file, "ticket_sub_categories");
  expect(ticket).toBe(copied.tickets + 1 + SEQUENCE_GAP_PER_DAY);
  expect(ticket).toBeGreaterThan(printed.tickets);
  expect(item).toBeGreaterThan(printed.items);
  expect(readdirSync(data).filter((f) => f.startsWith(".restoring"))).toEqual([]);
  expect(lstatSync(file).mode & 0o077).toBe(0);
  // Without --force an existing database stays as it is.
  const again = await restore("--from-backup", stick, "--data", data);
  expect(again.code).toBe(2);
  expect(again.out).toContain("exists: this box has a database. Use --force");
}, 60_000);

test("attack: as root in the service user's data folder, a planted newest copy linking to a root-only file is not restored, nor a named link", async () => {
  const data = join(dir, "service-box");
  const nightly = join(data, "backups/nightly");
  mkdirSync(nightly, { recursive: true });
  // A root-only database (say another service's) the service user must never get a copy of.
  const victim = join(dir, "root-only");
  mkdirSync(victim, { mode: 0o700 });
  const secret = new Database(join(victim, "secret.db"));
  secret.run("CREATE TABLE secrets (id INTEGER PRIMARY KEY AUTOINCREMENT, value TEXT); INSERT INTO secrets (value) VALUES ('root only')");
  secret.close();
  chmodSync(join(victim, "secret.db"), 0o600);
  // The service user's own copy of last night, and its planted "newer" one.
  const own = join(nightly, copyName);
  writeFileSync(own, readFileSync(join(stick, copyName)));
  symlinkSync(join(victim, "secret.db"), join(nightly, "ironbox-9.9.9-20991231T235959Z.db"));
  symlinkSync(join(victim, "secret.db"), join(data, ".restoring.db"));
  for (const p of [data, join(data, "backups"), nightly, own]) chownSync(p, SERVICE, SERVICE);
  for (const p of [join(nightly, "ironbox-9.9.9-20991231T235959Z.db"), join(data, ".restoring.db")]) lstatSync(p) && chownLink(p);

  let r = await restore("--from-backup", join(nightly, "ironbox-9.9.9-20991231T235959Z.db"), "--data", data);
  expect(r.code).toBe(1);
  expect(r.out).toContain("is a symbolic link: refused");
  // Named outright, a root-only file is read as the service user, who cannot.
  r = await restore("--from-backup", join(victim, "secret.db"), "--data", data);
  expect(r.code).toBe(1);
  expect(r.out).toContain("could not be read by the data folder's owner");
  expect(existsSync(join(data, "ironbox.db"))).toBe(false);

  // Control: the newest regular copy in the folder is restored, as the service user's file.
  r = await restore("--from-backup", nightly, "--data", data);
  expect(r.out).toContain(`restoring as the data folder's owner (uid ${SERVICE}), not as root`);
  expect(r.out).toContain(`from ${own}`);
  expect(r.code).toBe(0);
  const file = join(data, "ironbox.db");
  expect([lstatSync(file).uid, lstatSync(file).isFile()]).toEqual([SERVICE, true]);
  expect(q(file, "SELECT count(*) AS n FROM sqlite_master WHERE name = 'secrets'").n).toBe(0);
  // The root-only file is as it was.
  expect([lstatSync(join(victim, "secret.db")).uid, lstatSync(join(victim, "secret.db")).mode & 0o777]).toEqual([0, 0o600]);
  expect(q(join(victim, "secret.db"), "SELECT value FROM secrets") as unknown).toEqual({ value: "root only" });

  // An SSH key reached through a link the service user planted is not handed over.
  symlinkSync(join(victim, "secret.db"), join(data, "hq.key"));
  r = await restore("--url", "sftp://mosta@hq.example.com/mosta", "--key", join(data, "hq.key"), "--data", data, "--force");
  expect(r.code).toBe(2);
  expect(r.out).toContain("cannot be read (a link is refused)");
}, 60_000);

/** A link owned by the service user, as if it had planted it (lchown). */
function chownLink(p: string) {
  Bun.spawnSync(["chown", "-h", `${SERVICE}:${SERVICE}`, p]);
}
