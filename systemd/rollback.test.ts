import { afterAll, beforeEach, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/**
 * rollback.sh --restore-backup runs as root in a data folder the service user owns, where that
 * user can plant links. Each attack plants one (as the service user would) and shows root does
 * not follow it; the control restores the real newest copy, as the service user's files. The
 * box here is a stand-in: two release folders and a health answer on a free port.
 */
const REPO = resolve(import.meta.dir, "..");
const SERVICE = 4242; // the data folder's owner (a uid with no name needs none for setpriv)
let dir: string;
let root: string;
let data: string;
let victim: string;
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ success: true, data: { version: "1.0.0" } }) });
afterAll(() => {
  server.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), "ironbox-rollback-"));
  chmodSync(dir, 0o755);
  root = join(dir, "root");
  for (const v of ["1.0.0", "2.0.0"]) {
    mkdirSync(join(root, "opt/ironbox/releases", v), { recursive: true });
    writeFileSync(join(root, "opt/ironbox/releases", v, ".installed"), "");
    symlinkSync(join(REPO, "node_modules"), join(root, "opt/ironbox/releases", v, "node_modules")); // wait_healthy's bun
  }
  symlinkSync("releases/2.0.0", join(root, "opt/ironbox/current"));
  symlinkSync("releases/1.0.0", join(root, "opt/ironbox/previous"));
  mkdirSync(join(root, "etc/ironbox"), { recursive: true });
  writeFileSync(join(root, "etc/ironbox/ironbox.env"), `IRONBOX_PORT=${server.port}\n`);
  data = join(root, "var/lib/ironbox");
  mkdirSync(join(data, "backups"), { recursive: true });
  writeFileSync(join(data, "ironbox.db"), "the database as it is");
  writeFileSync(join(data, "ironbox.db-wal"), "its wal");
  writeFileSync(join(data, "backups/ironbox-2.0.0-20261120T010000Z.db"), "the copy taken before 2.0.0 migrated");
  utimesSync(join(data, "backups/ironbox-2.0.0-20261120T010000Z.db"), new Date("2026-11-20T01:00:00Z"), new Date("2026-11-20T01:00:00Z"));
  for (const p of [
    "var/lib/ironbox",
    "var/lib/ironbox/ironbox.db",
    "var/lib/ironbox/ironbox.db-wal",
    "var/lib/ironbox/backups",
    "var/lib/ironbox/backups/ironbox-2.0.0-20261120T010000Z.db",
  ])
    chownSync(join(root, p), SERVICE, SERVICE);
  // What root has and the service user must never reach: a system folder and a root-only file.
  victim = join(dir, "etc-like");
  mkdirSync(victim);
  writeFileSync(join(victim, "shadow"), "root's secret", { mode: 0o600 });
});

/** Not spawnSync: the stand-in box answers /health from this process while the script waits for it. */
const rollback = async (...args: string[]) => {
  const p = Bun.spawn(["sh", join(REPO, "scripts/rollback.sh"), "--root", root, ...args], {
    env: { ...process.env, IRONBOX_RESTART_CMD: "true" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out: `${out}${err}` };
};
const owner = (p: string) => lstatSync(p).uid;
const asides = () => readdirSync(join(data, "backups")).filter((f) => f.startsWith("replaced-"));
const noSecretIn = (folder: string) => {
  const r = spawnSync("grep", ["-rl", "root's secret", folder], { encoding: "utf8" });
  expect(r.stdout).toBe("");
};

test("control: --restore-backup puts back the newest copy; the replaced files are set aside, all the service user's", async () => {
  const r = await rollback("--restore-backup");
  expect(r.out).toContain("database restored from");
  expect(r.code).toBe(0);
  expect(readFileSync(join(data, "ironbox.db"), "utf8")).toBe("the copy taken before 2.0.0 migrated");
  expect(owner(join(data, "ironbox.db"))).toBe(SERVICE);
  const [aside] = asides();
  expect(aside).toMatch(/^replaced-\d{8}T\d{6}Z\.\w{6}$/);
  expect(readdirSync(join(data, "backups", aside!)).sort()).toEqual(["ironbox.db", "ironbox.db-wal"]);
  expect(owner(join(data, "backups", aside!))).toBe(SERVICE);
  expect(readFileSync(join(data, "backups", aside!, "ironbox.db"), "utf8")).toBe("the database as it is");
  expect(readlinkCurrent()).toBe("releases/1.0.0");
});
const readlinkCurrent = () => spawnSync("readlink", [join(root, "opt/ironbox/current")], { encoding: "utf8" }).stdout.trim();

test("attack: a planted backups/replaced-<time> link to a system folder is neither followed nor chowned", async () => {
  // Every name the next few seconds could give the folder for the replaced files.
  const now = Date.now();
  for (let s = 0; s < 5; s++) {
    const stamp = new Date(now + s * 1000)
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d+Z$/, "Z");
    symlinkSync(victim, join(data, "backups", `replaced-${stamp}`));
  }
  const r = await rollback("--restore-backup");
  expect(r.code).toBe(0);
  expect(owner(victim)).toBe(0);
  expect(owner(join(victim, "shadow"))).toBe(0);
  expect(readdirSync(victim)).toEqual(["shadow"]);
  // The replaced files went into a new folder of their own.
  const real = asides().filter((a) => !lstatSync(join(data, "backups", a)).isSymbolicLink());
  expect(real).toHaveLength(1);
  expect(readdirSync(join(data, "backups", real[0]!)).sort()).toEqual(["ironbox.db", "ironbox.db-wal"]);
});

test("attack: a planted newest ironbox-*.db link to a root-only file is not copied into the data folder", async () => {
  symlinkSync(join(victim, "shadow"), join(data, "backups/ironbox-9.9.9-20991231T235959Z.db"));
  const r = await rollback("--restore-backup");
  expect(r.code).toBe(0);
  // The newest regular file is restored; the link is passed over.
  expect(readFileSync(join(data, "ironbox.db"), "utf8")).toBe("the copy taken before 2.0.0 migrated");
  noSecretIn(data.replace(/\/$/, ""));
});

test("attack: the link named as the file to restore, or a backups folder that is a link, is refused", async () => {
  symlinkSync(join(victim, "shadow"), join(data, "backups/ironbox-9.9.9-20991231T235959Z.db"));
  let r = await rollback("--restore-backup", join(data, "backups/ironbox-9.9.9-20991231T235959Z.db"));
  expect(r.code).toBe(1);
  expect(r.out).toContain("is a symbolic link: refused");
  // A root-only file named outright: read as the service user, which cannot.
  r = await rollback("--restore-backup", join(victim, "shadow"));
  expect(r.code).toBe(1);
  expect(r.out).toContain("could not restore");
  expect(readFileSync(join(data, "ironbox.db"), "utf8")).toBe("the database as it is");
  noSecretIn(data);
  rmSync(join(data, "backups"), { recursive: true });
  symlinkSync(victim, join(data, "backups"));
  r = await rollback("--restore-backup");
  expect(r.code).toBe(1);
  expect(r.out).toContain("backups is a symbolic link: refused");
  expect(existsSync(join(data, "ironbox.db"))).toBe(true);
  expect(readdirSync(victim)).toEqual(["shadow"]);
});
