/**
 * Restores a shop's box from its replica at HQ (a replacement box, or a dead disk):
 *
 *   scripts/restore-box.sh --url sftp://mosta@hq.example.com:22/mosta --key /root/hq-link.key \
 *     --data /var/lib/ironbox [--start] [--port 8080] [--force]
 *
 * 1. `litestream restore` of the site's latest replica into a temporary file in the data
 *    folder (retried when it overlaps an upload: Litestream then fails with EOF);
 * 2. `PRAGMA integrity_check` on it;
 * 3. rename(2) into place as <data>/ironbox.db (an existing database is kept aside as
 *    ironbox.db.before-restore-<time>, and only with --force); Litestream's local state of the
 *    old database is removed, so the box starts a new generation at HQ;
 * 4. with --start, starts the appliance on it (same replica URL and key, so it streams to HQ
 *    again) and waits until it serves; otherwise prints the command.
 * Prints how long each step took. Exits non-zero when nothing usable was restored.
 */
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { replicaUrlProblem } from "../appliance/modules/hqlink/model";
import { LITESTREAM_BIN, parseLogLine, plainError, replicaOnlyConfig } from "../drivers/replication/litestream";

const { values: o } = parseArgs({
  options: {
    url: { type: "string" },
    key: { type: "string" },
    data: { type: "string" },
    start: { type: "boolean", default: false },
    port: { type: "string", default: "8080" },
    force: { type: "boolean", default: false },
    attempts: { type: "string", default: "5" },
  },
});
if (!o.url || !o.data) {
  console.error("usage: restore-box.sh --url <replica URL> [--key <ssh private key>] --data <data folder> [--start] [--port 8080] [--force]");
  process.exit(2);
}
const problem = replicaUrlProblem(o.url);
if (problem) {
  console.error(`the replica URL ${problem}`);
  process.exit(2);
}
const dataDir = resolve(o.data);
const target = join(dataDir, "ironbox.db");
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const t0 = performance.now();

mkdirSync(dataDir, { recursive: true });
if (existsSync(target) && !o.force) {
  console.error(`${target} exists: this box has a database. Use --force to keep it aside and restore over it.`);
  process.exit(2);
}

// Litestream 0.3 takes an SSH key only from a configuration file: one naming the replica alone.
const etc = mkdtempSync(join(tmpdir(), "ironbox-restore-"));
const config = join(etc, "litestream.yml");
writeFileSync(config, replicaOnlyConfig({ dbPath: target, target: { url: o.url, keyPath: o.key ? resolve(o.key) : null } }), { mode: 0o600 });
chmodSync(config, 0o600);
const tmp = join(dataDir, ".restoring.db");
const clear = () => {
  for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`, `${tmp}.tmp`]) rmSync(f, { force: true });
};

let restored = false;
const attempts = Number(o.attempts);
for (let attempt = 1; attempt <= attempts && !restored; attempt++) {
  clear();
  const p = Bun.spawn([LITESTREAM_BIN, "restore", "-config", config, "-no-expand-env", "-o", tmp, target], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code === 0 && existsSync(tmp)) {
    restored = true;
    break;
  }
  const line = `${err}\n${out}`
    .split("\n")
    .map(parseLogLine)
    .find((l) => l?.level === "ERROR");
  const raw = line?.attrs.error ?? (err || out).trim().split("\n").pop() ?? `exit ${code}`;
  console.error(`attempt ${attempt}: ${plainError(raw)} (${raw})`);
  if (/no matching backups|no generations|no snapshots|refused the key/i.test(`${raw} ${plainError(raw)}`)) break;
  await Bun.sleep(1000 * attempt);
}
rmSync(etc, { recursive: true, force: true });
if (!restored) {
  clear();
  console.error("nothing restored");
  process.exit(1);
}
const restoredIn = seconds(t0);

const t1 = performance.now();
const check = new Database(tmp, { readonly: true });
const integrity = String(Object.values(check.query("PRAGMA integrity_check").get() as object)[0]);
check.close();
if (integrity !== "ok") {
  clear();
  console.error(`the restored copy failed its integrity check: ${integrity.slice(0, 300)}`);
  process.exit(1);
}
const checkedIn = seconds(t1);

if (existsSync(target)) {
  const aside = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  renameSync(target, aside);
  for (const f of ["-wal", "-shm"]) if (existsSync(target + f)) renameSync(target + f, aside + f);
  console.log(`the previous database is kept as ${aside}`);
}
for (const f of [`${target}-wal`, `${target}-shm`]) rmSync(f, { force: true });
// Litestream's shadow WAL of the old database must not be taken for this one's.
rmSync(join(dataDir, ".ironbox.db-litestream"), { recursive: true, force: true });
rmSync(join(dataDir, "litestream.pid"), { force: true });
renameSync(tmp, target);
const size = statSync(target).size;
console.log(
  `restored ${(size / 1024 / 1024).toFixed(0)} MB from ${new URL(o.url).host || "a folder"} in ${restoredIn} s; integrity ok in ${checkedIn} s; moved into ${target}`,
);

const env = {
  IRONBOX_DATA_DIR: dataDir,
  IRONBOX_PORT: o.port,
  IRONBOX_REPLICA_URL: o.url,
  ...(o.key ? { IRONBOX_REPLICA_KEY: resolve(o.key) } : {}),
};
const command = `${Object.entries(env)
  .map(([k, v]) => `${k}=${v}`)
  .join(" ")} bun appliance/main.ts`;
if (!o.start) {
  console.log(`start the appliance on it (from the ironbox folder): ${command}`);
  process.exit(0);
}
const box = Bun.spawn([process.execPath, join(import.meta.dir, "../appliance/main.ts")], {
  env: { ...process.env, ...env },
  stdio: ["ignore", "inherit", "inherit"],
});
for (let i = 0; i < 1200; i++) {
  const ok = await fetch(`http://127.0.0.1:${o.port}/api/v1/health`)
    .then((r) => r.ok)
    .catch(() => false);
  if (ok) {
    console.log(`serving on port ${o.port} ${seconds(t0)} s after the restore began (the appliance pid ${box.pid})`);
    break;
  }
  if (box.exitCode !== null) {
    console.error(`the appliance exited (${box.exitCode})`);
    process.exit(1);
  }
  await Bun.sleep(250);
}
// The appliance runs on in the foreground (Ctrl-C or systemd stops it).
process.exit(await box.exited);
