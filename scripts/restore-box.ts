/**
 * Restores a shop's box from its replica at HQ, or from one of its own nightly backups (a
 * replacement box, or a dead disk):
 *
 *   scripts/restore-box.sh --url sftp://mosta@hq.example.com:22/mosta --key /root/hq-link.key \
 *     --data /var/lib/ironbox [--start] [--port 8080] [--force]
 *   scripts/restore-box.sh --from-backup /media/usb/ironbox --data /var/lib/ironbox [--start] [--force]
 *
 * 1. `litestream restore` of the site's latest replica into a temporary file in the data
 *    folder (retried when it overlaps an upload: Litestream then fails with EOF; when the
 *    newest WAL segment fails twice, torn by a box that died uploading it, everything before
 *    it, from a local replica without it (drivers/replication/torn.ts; failing that, up to
 *    the second before it), and it says so); or a copy of the backup (a file, or the newest `ironbox-*.db` in a folder: the box's backups/nightly,
 *    or the second disk or USB stick the nightly backup also goes to);
 * 2. `PRAGMA integrity_check` on it;
 * 3. every id sequence moves on (db/sequences.ts), so no ticket or label id the dead box may
 *    have printed after its copy was taken is given again;
 * 4. rename(2) into place as <data>/ironbox.db (an existing database is kept aside as
 *    ironbox.db.before-restore-<time>, and only with --force); Litestream's local state of the
 *    old database is removed, so the box starts a new generation at HQ;
 * 5. with --start, starts the appliance on it (from HQ: the same replica URL and key, so it
 *    streams to HQ again) and waits until it serves; otherwise prints the command.
 * Run as root on a data folder the service user owns, the restore runs as that user (setpriv):
 * root never acts inside a folder where that user can plant links, and the files it makes are
 * the service's. Prints how long each step took. Exits non-zero when nothing usable was restored.
 */
import { Database } from "bun:sqlite";
import {
  chmodSync,
  chownSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { listBackupsIn } from "../db/backups";
import { advanceSequences, sequenceGap } from "../db/sequences";
import { replicaUrlProblem } from "../appliance/modules/hqlink/model";
import { LITESTREAM_BIN, parseLogLine, plainError, replicaOnlyConfig } from "../drivers/replication/litestream";
import { parseSnapshotIndexes, parseWalListing, replicaWithoutNewest, type Run, segmentWords } from "../drivers/replication/torn";

const { values: o } = parseArgs({
  options: {
    url: { type: "string" },
    key: { type: "string" },
    "from-backup": { type: "string" },
    data: { type: "string" },
    start: { type: "boolean", default: false },
    port: { type: "string", default: "8080" },
    force: { type: "boolean", default: false },
    attempts: { type: "string", default: "5" },
  },
});
const fromBackup = o["from-backup"];
if (!o.data || !!o.url === !!fromBackup) {
  console.error(
    "usage: restore-box.sh (--url <replica URL> [--key <ssh private key>] | --from-backup <backup file or folder>) --data <data folder> [--start] [--port 8080] [--force]",
  );
  process.exit(2);
}
const problem = o.url ? replicaUrlProblem(o.url) : null;
if (problem) {
  console.error(`the replica URL ${problem}`);
  process.exit(2);
}
const dataDir = resolve(o.data);
// What the restore makes is the service's alone (the unit runs the box with UMask=0077).
process.umask(0o077);
await asDataOwner();
const target = join(dataDir, "ironbox.db");
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const t0 = performance.now();

mkdirSync(dataDir, { recursive: true, mode: 0o750 });
if (existsSync(target) && !o.force) {
  console.error(`${target} exists: this box has a database. Use --force to keep it aside and restore over it.`);
  process.exit(2);
}

const tmp = join(dataDir, ".restoring.db");
const clear = () => {
  for (const f of [tmp, `${tmp}-wal`, `${tmp}-shm`, `${tmp}.tmp`]) rmSync(f, { force: true });
};
/** How far behind what the dead box issued the copy may be (null: unknown, a replica is about a second). */
let behindMs: number | null = null;
let source: string;
if (o.url) {
  await restoreFromHq(o.url);
  source = new URL(o.url).host || "a folder";
} else {
  const copy = pickBackup(resolve(fromBackup!));
  clear();
  try {
    copyFileSync(copy.file, tmp, constants.COPYFILE_EXCL);
  } catch (e) {
    console.error(`${copy.file} could not be read${process.getuid?.() === 0 ? "" : " by the data folder's owner"}: ${(e as Error).message}`);
    clear();
    process.exit(1);
  }
  behindMs = Math.max(0, Date.now() - Date.parse(copy.at));
  source = `${copy.file} (taken ${copy.at})`;
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

// No id the dead box may have printed after this copy was taken is given again.
const gap = sequenceGap(behindMs);
const seqDb = new Database(tmp);
const moves = advanceSequences(seqDb, gap);
seqDb.close();
for (const f of [`${tmp}-wal`, `${tmp}-shm`]) rmSync(f, { force: true });
const shown = ["tickets", "ticket_sub_categories", "customers"].flatMap((t) => moves.filter((m) => m.table === t));
console.log(
  `ids move on by ${gap} so none the box may have issued after this copy is given again: ${shown
    .map((m) => `${m.table === "ticket_sub_categories" ? "items" : m.table} from ${m.from + 1} to ${m.to + 1}`)
    .join(", ")} (and every other id sequence, ${moves.length} in all)`,
);

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
chmodSync(tmp, 0o600); // a copy keeps its source's mode; the box's database is its own
renameSync(tmp, target);
const size = statSync(target).size;
console.log(`restored ${(size / 1024 / 1024).toFixed(0)} MB from ${source} in ${restoredIn} s; integrity ok in ${checkedIn} s; moved into ${target}`);

const env: Record<string, string> = {
  IRONBOX_DATA_DIR: dataDir,
  IRONBOX_PORT: o.port,
  ...(o.url ? { IRONBOX_REPLICA_URL: o.url } : {}),
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

/** `litestream restore` of the site's latest replica into `tmp`, retried; exits when nothing came. */
async function restoreFromHq(url: string) {
  // Litestream 0.3 takes an SSH key only from a configuration file: one naming the replica alone.
  const etc = mkdtempSync(join(tmpdir(), "ironbox-restore-"));
  const config = join(etc, "litestream.yml");
  writeFileSync(config, replicaOnlyConfig({ dbPath: target, target: { url, keyPath: o.key ? resolve(o.key) : null } }), { mode: 0o600 });
  chmodSync(config, 0o600);
  let restored = false;
  const attempts = Number(o.attempts);
  let lastWalFailure = "";
  let upTo: string[] = [];
  for (let attempt = 1; attempt <= attempts && !restored; attempt++) {
    clear();
    const p = Bun.spawn([LITESTREAM_BIN, "restore", "-config", config, "-no-expand-env", ...upTo, "-o", tmp, target], { stdout: "pipe", stderr: "pipe" });
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
    // Twice the same failure while fetching the WAL (the snapshot came): not an upload that
    // overlapped the restore but the last segment, which a dying box never finished (Litestream's
    // SFTP client writes a segment in place, so a kill leaves it torn at HQ, and every restore of
    // the latest fails on it: "cannot download wal …: EOF", or "context canceled" when another
    // download's error comes first). The next attempts restore up to the segments uploaded
    // before it: what a dead box's restore can have. Said, never silent.
    const logs = `${err}\n${out}`.split("\n").map(parseLogLine);
    const generation = logs.find((l) => l?.msg === "restoring snapshot")?.attrs.generation ?? "";
    const walFailure = generation && /cannot download wal|context canceled|\bEOF\b/i.test(raw) ? `${generation} ${raw}` : "";
    if (walFailure && walFailure === lastWalFailure && !upTo.length) {
      if (await restoreWithoutNewest(config, url, generation, etc)) {
        restored = true;
        break;
      }
      upTo = await beforeLastSegment(config, generation);
      if (upTo.length) console.error(`the newest WAL segment at HQ cannot be read (the box died uploading it?): restoring up to ${upTo[3]}`);
    }
    lastWalFailure = walFailure;
    await Bun.sleep(1000 * attempt);
  }
  rmSync(etc, { recursive: true, force: true });
  if (!restored) {
    clear();
    console.error("nothing restored");
    process.exit(1);
  }
}

/**
 * The newest segment torn: everything before it, exactly (drivers/replication/torn.ts), from a
 * local replica of the generation without it. False when that cannot be had (then `-timestamp`).
 */
async function restoreWithoutNewest(config: string, url: string, generation: string, etc: string): Promise<boolean> {
  const run: Run = async (cmd) => {
    const p = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe", stdin: "ignore" });
    const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { code, out, err };
  };
  const wal = await run([LITESTREAM_BIN, "wal", "-config", config, "-no-expand-env", "-generation", generation, target]);
  const snaps = await run([LITESTREAM_BIN, "snapshots", "-config", config, "-no-expand-env", target]);
  if (wal.code !== 0 || snaps.code !== 0) return false;
  const into = join(etc, "replica");
  const local = await replicaWithoutNewest({
    url,
    keyPath: o.key ? resolve(o.key) : null,
    generation,
    wal: parseWalListing(wal.out),
    snapshots: parseSnapshotIndexes(snaps.out, generation),
    into,
    run,
  });
  if ("error" in local) {
    console.error(`the newest WAL segment at HQ cannot be read, and the segments before it could not be fetched (${local.error})`);
    return false;
  }
  clear();
  const res = await run([LITESTREAM_BIN, "restore", "-o", tmp, local.url]);
  rmSync(into, { recursive: true, force: true });
  if (res.code !== 0 || !existsSync(tmp)) return false;
  console.error(
    `the newest WAL segment at HQ cannot be read (the box died uploading it?): restored everything before it (${segmentWords(local.left)} left out; ${local.segments} segments after the snapshot)`,
  );
  return true;
}

/**
 * `litestream restore` options for the generation up to its newest WAL segment, excluded:
 * `-timestamp` one second before that segment's upload time (SFTP keeps whole seconds, so the
 * segments uploaded in the same second are left out too). None when the list cannot be had.
 */
async function beforeLastSegment(config: string, generation: string): Promise<string[]> {
  if (!generation) return [];
  const p = Bun.spawn([LITESTREAM_BIN, "wal", "-config", config, "-no-expand-env", "-generation", generation, target], { stdout: "pipe", stderr: "pipe" });
  const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  if (code !== 0) return [];
  // Columns: replica, generation, index, offset, size, created (RFC 3339).
  const times = out
    .split("\n")
    .slice(1)
    .map((l) => Date.parse(l.trim().split(/\s+/)[5] ?? ""))
    .filter((t) => !Number.isNaN(t));
  if (!times.length) return [];
  const before = new Date(Math.max(...times) - 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
  return ["-generation", generation, "-timestamp", before];
}

/** The backup to restore: the file named, or the newest copy in the folder named; never a link. */
function pickBackup(path: string): { file: string; at: string } {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") console.error(`${path} does not exist (is the disk plugged in and mounted?)`);
    else console.error(`${path} could not be read${process.getuid?.() === 0 ? "" : " by the data folder's owner"}: ${(e as Error).message}`);
    process.exit(1);
  }
  if (st.isSymbolicLink()) {
    console.error(`${path} is a symbolic link: refused (name the file or folder itself)`);
    process.exit(1);
  }
  if (st.isDirectory()) {
    // Regular files named as copies, newest first (db/backups.ts); a planted link is never one.
    const [newest] = listBackupsIn(path);
    if (!newest) {
      console.error(`no backup (ironbox-<version>-<time>.db) in ${path}`);
      process.exit(1);
    }
    return { file: newest.file, at: newest.at };
  }
  const named = listBackupsIn(resolve(path, "..")).find((b) => b.file === path);
  return { file: path, at: named?.at ?? st.mtime.toISOString() };
}

/**
 * Run as root on a data folder that belongs to the service user, the restore goes on as that
 * user: everything it does in the folder (where that user can plant links) has only that
 * user's rights, and what it makes is the service's. An SSH key root was given is handed over
 * in a private folder (read without following a link). Returns when no switch is needed.
 */
async function asDataOwner() {
  if (process.getuid?.() !== 0) return;
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(dataDir);
  } catch {
    return; // a new folder: made by root (install.sh makes the service's)
  }
  if (st.isSymbolicLink()) {
    console.error(`${dataDir} is a symbolic link: refused (name the data folder itself)`);
    process.exit(2);
  }
  if (st.uid === 0) return;
  const args = process.argv.slice(2);
  let keyDir: string | null = null;
  if (o.key) {
    const key = resolve(o.key);
    let fd: number;
    try {
      fd = openSync(key, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (e) {
      console.error(`the key ${key} cannot be read (a link is refused): ${(e as Error).message}`);
      process.exit(2);
    }
    if (realpathSync(key) !== key || !fstatSync(fd).isFile()) {
      console.error(`the key ${key} is reached through a link or is not a file: refused`);
      process.exit(2);
    }
    const text = readFileSync(fd);
    closeSync(fd);
    keyDir = mkdtempSync(join(tmpdir(), "ironbox-restore-key-"));
    writeFileSync(join(keyDir, "key"), text, { mode: 0o600 });
    chownSync(join(keyDir, "key"), st.uid, st.gid);
    chownSync(keyDir, st.uid, st.gid);
    const at = args.findIndex((a) => a === "--key" || a.startsWith("--key="));
    if (args[at] === "--key") args[at + 1] = join(keyDir, "key");
    else args[at] = `--key=${join(keyDir, "key")}`;
  }
  console.log(`restoring as the data folder's owner (uid ${st.uid}), not as root`);
  const child = Bun.spawn(["setpriv", `--reuid=${st.uid}`, `--regid=${st.gid}`, "--clear-groups", "--", process.execPath, import.meta.path, ...args], {
    env: { ...process.env, HOME: dataDir },
    stdio: ["inherit", "inherit", "inherit"],
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  const code = await child.exited;
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
  process.exit(code);
}
