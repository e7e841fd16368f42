import { afterAll, beforeAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createClient } from "@libsql/client";
import { freePort } from "../appliance/test/ports";

/**
 * Upgrades in place (scripts/upgrade.sh) on a box installed into a temporary root: a release
 * whose migration fails leaves the box on the old release, serving, with its data as it was
 * and the copy taken before the migration kept; a good release is switched to, and
 * scripts/rollback.sh goes back. Without systemd here, IRONBOX_RESTART_CMD restarts the
 * appliance (the scripts use systemctl on a real box).
 */
const REPO = resolve(import.meta.dir, "..");
// PORT and PORT + 1 (HTTPS), asked of the kernel (test/ports.ts): a second run beside this one gets its own.
const PORT = await freePort(2);
const OLD = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version as string;
let dir: string;
let root: string;
const sh = (cmd: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd: REPO, encoding: "utf8", env: { ...process.env, ...env } });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
};

/** A checkout of a later release: this one with another version and one more migration. */
function release(version: string, migration: string) {
  const src = join(dir, `src-${version}`);
  mkdirSync(src);
  spawnSync("sh", [
    "-c",
    `tar -C "${REPO}" --exclude=./.git --exclude=./node_modules --exclude=./.e2e-data --exclude=./test-results --exclude=./ui/dist --exclude=./data -cf - . | tar -C "${src}" -xf -`,
  ]);
  symlinkSync(join(REPO, "node_modules"), join(src, "node_modules")); // install.sh takes Bun from here
  const pkg = JSON.parse(readFileSync(join(src, "package.json"), "utf8"));
  writeFileSync(join(src, "package.json"), JSON.stringify({ ...pkg, version }, null, 2));
  const journalFile = join(src, "db/migrations/meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8"));
  const last = journal.entries.at(-1);
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: "9999_upgrade_test" });
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(join(src, "db/migrations/9999_upgrade_test.sql"), migration);
  return src;
}

const health = () =>
  fetch(`http://127.0.0.1:${PORT}/api/v1/health`)
    .then((r) => r.json() as Promise<{ data: { version: string } }>)
    .then((j) => j.data.version)
    .catch(() => null);
async function query(sql: string) {
  const c = createClient({ url: `file:${join(root, "var/lib/ironbox/ironbox.db")}` });
  try {
    return (await c.execute(sql)).rows;
  } finally {
    c.close();
  }
}
const current = () => readlinkSync(join(root, "opt/ironbox/current"));
let restart: Record<string, string>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ironbox-upgrade-"));
  chmodSync(dir, 0o755);
  root = join(dir, "root");
  mkdirSync(join(root, "etc"), { recursive: true });
  for (const f of ["passwd", "group", "shadow", "gshadow"]) cpSync(`/etc/${f}`, join(root, "etc", f));
  expect(sh(["sh", "scripts/install.sh", "--root", root]).code).toBe(0);
  writeFileSync(join(root, "etc/ironbox/ironbox.env"), `IRONBOX_PORT=${PORT}\nIRONBOX_HTTPS_PORT=${PORT + 1}\nIRONBOX_MDNS=0\nIRONBOX_DEMO=1\n`, { flag: "a" });
  // What systemctl restart does for the test: stop the running appliance, start the `current` release.
  const script = join(dir, "restart.sh");
  writeFileSync(
    script,
    `pid=$(cat "${dir}/box.pid" 2>/dev/null) && kill "$pid" 2>/dev/null && while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
cd "${root}/opt/ironbox/current" && set -a && . "${root}/etc/ironbox/ironbox.env" && set +a
IRONBOX_DATA_DIR="${root}/var/lib/ironbox" IRONBOX_SYSFS_ROOT="${dir}/sys" IRONBOX_DEV_ROOT="${dir}/dev" nohup node_modules/.bin/bun appliance/main.ts >>"${dir}/box.log" 2>&1 &
echo $! >"${dir}/box.pid"
`,
  );
  restart = { IRONBOX_RESTART_CMD: `sh ${script}` };
  sh(["sh", script]);
  for (let i = 0; i < 200 && (await health()) !== OLD; i++) await Bun.sleep(50);
}, 60_000);
afterAll(() => {
  spawnSync("sh", ["-c", `kill $(cat "${dir}/box.pid") 2>/dev/null`]);
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

test("a release whose migration fails: the box goes back to the old release and serves, data as it was, the copy kept", async () => {
  expect(await health()).toBe(OLD);
  const tickets = (await query("SELECT count(*) AS n FROM tickets"))[0]!.n;
  const bad = release("99.0.0-bad", "ALTER TABLE tickets ADD COLUMN upgrade_test text;\n--> statement-breakpoint\nINSERT INTO no_such_table VALUES (1);");
  const r = sh(["sh", join(bad, "scripts/upgrade.sh"), "--root", root, "--timeout", "6"], restart);
  expect(r.code).toBe(1);
  expect(r.out).toContain(`99.0.0-bad did not answer within 6s: back to ${OLD}`);
  expect(r.out).toContain(`serving ${OLD} again`);
  expect(current()).toBe(`releases/${OLD}`);
  expect(existsSync(join(root, "opt/ironbox/releases/99.0.0-bad/.installed"))).toBe(true); // installed beside, not used
  expect(await health()).toBe(OLD);
  // Not half migrated: no new column, every ticket there; the copy the new release took first is kept.
  expect((await query("PRAGMA table_info(tickets)")).some((c) => c.name === "upgrade_test")).toBe(false);
  expect((await query("SELECT count(*) AS n FROM tickets"))[0]!.n).toBe(tickets);
  expect(readdirSync(join(root, "var/lib/ironbox/backups")).filter((f) => f.startsWith("ironbox-99.0.0-bad-"))).toHaveLength(1);
  expect(readFileSync(join(dir, "box.log"), "utf8")).toContain("no such table: no_such_table");
}, 60_000);

test("a good release is switched to; rollback.sh goes back to the one before", async () => {
  const good = release("99.0.1-good", "ALTER TABLE tickets ADD COLUMN upgrade_test text;");
  const r = sh(["sh", join(good, "scripts/upgrade.sh"), "--root", root, "--timeout", "30"], restart);
  expect(r.out).toContain(`now on 99.0.1-good (was ${OLD})`);
  expect(r.code).toBe(0);
  expect(await health()).toBe("99.0.1-good");
  expect((await query("PRAGMA table_info(tickets)")).some((c) => c.name === "upgrade_test")).toBe(true);

  const back = sh(["sh", join(root, "opt/ironbox/current/scripts/rollback.sh"), "--root", root], restart);
  expect(back.out).toContain(`current -> releases/${OLD} (was releases/99.0.1-good)`);
  expect(back.code).toBe(0);
  expect(current()).toBe(`releases/${OLD}`);
  expect(await health()).toBe(OLD);
  expect(String((await query("PRAGMA integrity_check"))[0]![0])).toBe("ok");
}, 90_000);
