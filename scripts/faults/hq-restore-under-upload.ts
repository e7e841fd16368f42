/**
 * HQ restores while the shop uploads (issue 15): every copy HQ swaps in passes
 * `PRAGMA integrity_check`.
 *   bun scripts/faults/hq-restore-under-upload.ts [--restores 40] [--seconds 180] [--workers 3] [--port 5152] [--via sftp|storage] [--short: 3 restores, 60 s at most]
 * A shop box (the real appliance, demo data) takes counter writes from several clients while
 * Litestream replicates its database over SFTP to a real OpenSSH server (scripts/faults/sshd.ts:
 * key login, chrooted, a folder per site). An HQ-mode box restores the site again and again
 * through its API (POST /chain/sites/mosta/restore), over SFTP with the key (`--via sftp`,
 * IRONBOX_SITES) or from the SSH server's folder on disk (`--via storage`, IRONBOX_HQ_STORAGE).
 * After each restore the script opens the copy HQ swapped in and checks it itself. At the
 * end the writes stop, one more restore runs, and every acknowledged ticket must be in it.
 * Bounded by --restores and --seconds. Prints restores, failures retried, integrity failures.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LITESTREAM_BIN } from "../../drivers/replication/litestream";
import { hasSnapshot } from "../../appliance/test/chainSites";
import { arg, burst, call, newAcked, startBox } from "./lib";
import { startSshd } from "./sshd";
import { freePort } from "../../appliance/test/ports";

const restores = arg("restores", 40, 3);
const seconds = arg("seconds", 180, 60);
const workers = arg("workers", 3);
const port = arg("port", await freePort(3));
const via = process.argv.includes("--via") ? process.argv[process.argv.indexOf("--via") + 1] : "sftp";
if (via !== "sftp" && via !== "storage") throw new Error("--via is sftp or storage");

const tmp = mkdtempSync(join(tmpdir(), "ironbox-hq-restore-"));
const shopDir = join(tmp, "shop");
const hqDir = join(tmp, "hq");
const sshd = await startSshd({ port: port + 2 });
const replicaUrl = sshd.url("mosta");
const children: { kill(signal?: number | NodeJS.Signals): void }[] = [];

/** Integrity and the acknowledged tickets present in a copy, checked by this script on its own. */
function inspect(file: string, tickets: Set<number>) {
  const db = new Database(file, { readonly: true });
  try {
    const integrity = (db.query("PRAGMA integrity_check").values() as [string][]).map((r) => r[0]).join("; ");
    const have = new Set((db.query("SELECT id FROM tickets").values() as [number][]).map((r) => r[0]));
    return { integrity, present: [...tickets].filter((t) => have.has(t)).length };
  } finally {
    db.close();
  }
}

try {
  const shop = await startBox(shopDir, port, true);
  children.push(shop.child);
  // Litestream as the shop's supervisor runs it: SFTP with the key (a configuration file: 0.3 takes keys only there).
  const cfg = join(tmp, "litestream.yml");
  writeFileSync(
    cfg,
    `dbs:\n  - path: ${JSON.stringify(join(shopDir, "ironbox.db"))}\n    replicas:\n      - url: ${JSON.stringify(replicaUrl)}\n        key-path: ${JSON.stringify(sshd.keyPath)}\n`,
  );
  const litestream = Bun.spawn([LITESTREAM_BIN, "replicate", "-config", cfg], { stdout: "ignore", stderr: "ignore" });
  children.push(litestream);
  // HQ starts once the first snapshot has arrived (before it, "no replica yet" is the right answer).
  for (let i = 0; i < 300 && !hasSnapshot(sshd.dir("mosta")); i++) await Bun.sleep(100);

  const hqBox = Bun.spawn([process.execPath, join(import.meta.dir, "../../appliance/main.ts")], {
    env: {
      ...process.env,
      IRONBOX_MODE: "hq",
      IRONBOX_HQ_RESTORE_SECONDS: "0",
      ...(via === "sftp" ? { IRONBOX_SITES: `mosta=${replicaUrl}`, IRONBOX_HQ_SFTP_KEY: sshd.keyPath } : { IRONBOX_HQ_STORAGE: sshd.root }),
      IRONBOX_DATA_DIR: hqDir,
      IRONBOX_PORT: String(port + 1),
      IRONBOX_HTTPS: "0",
      IRONBOX_MDNS: "0",
      IRONBOX_SYSFS_ROOT: join(hqDir, "sys"),
      IRONBOX_DEV_ROOT: join(hqDir, "dev"),
      IRONBOX_ADMIN_USER: "admin",
      IRONBOX_ADMIN_PASSWORD: "admin-pass-1",
      IRONBOX_ADMIN_PIN: "9999",
    },
    stdout: "ignore",
    stderr: "ignore",
  });
  children.push(hqBox);
  const hq = `http://127.0.0.1:${port + 1}/api/v1`;
  for (
    let i = 0;
    i < 300 &&
    !(await fetch(`${hq}/health`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  )
    await Bun.sleep(50);
  const agent = await call(hq, "POST", "/login/agent", undefined, { user_name: "admin", password: "admin-pass-1" });
  const staff = await call(hq, "POST", "/login/employee", agent, { pin: "9999" });
  const restore = () => call(hq, "POST", "/chain/sites/mosta/restore", staff) as Promise<{ restores: number; retries: number; last_error: string | null }>;

  const acked = newAcked();
  const stop = await burst(shop, acked, workers, "hq restore");
  const copy = join(hqDir, "sites", "mosta.db");
  const until = Date.now() + seconds * 1000;
  let swapped = 0;
  let givenUp = 0;
  let integrityFailures = 0;
  let lastPresent = 0;
  let state = { restores: 0, retries: 0, last_error: null as string | null };
  for (let n = 1; n <= restores && Date.now() < until; n++) {
    state = await restore();
    if (state.restores === swapped) {
      givenUp++;
      console.log(`restore ${String(n).padStart(3)}: not swapped in: ${state.last_error}`);
      continue;
    }
    swapped = state.restores;
    const r = inspect(copy, acked.tickets);
    if (r.integrity !== "ok") integrityFailures++;
    lastPresent = r.present;
    console.log(
      `restore ${String(n).padStart(3)}: integrity ${r.integrity}; ${r.present} of ${acked.tickets.size} acknowledged tickets in the copy; retries so far ${state.retries}`,
    );
  }
  await stop();
  // The shop is quiet: Litestream ships the last writes within its 1 s sync; one more restore.
  await Bun.sleep(3000);
  state = await restore();
  const last = inspect(copy, acked.tickets);
  if (last.integrity !== "ok") integrityFailures++;
  const missing = acked.tickets.size - last.present;
  console.log(
    `via ${via === "sftp" ? "SFTP (IRONBOX_SITES, key login)" : "the SSH server's folder (IRONBOX_HQ_STORAGE)"}; replica on OpenSSH sftp (chrooted, key login)`,
  );
  console.log(
    `${state.restores} restores swapped in while the shop made ${acked.writes} acknowledged writes (${acked.tickets.size} tickets); failures retried ${state.retries}; restores given up ${givenUp}; integrity failures ${integrityFailures}; acknowledged tickets missing from the final copy ${missing} (last copy under upload had ${lastPresent})`,
  );
  process.exitCode = integrityFailures === 0 && missing === 0 && state.last_error === null ? 0 : 1;
} finally {
  for (const c of children) c.kill();
  await sshd.close();
  rmSync(tmp, { recursive: true, force: true });
}
