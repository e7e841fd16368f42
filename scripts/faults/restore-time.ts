/**
 * The dead-box bar for time: the 1 GB reference data set restored from HQ and serving in
 * at most five minutes.
 *   bun scripts/faults/restore-time.ts [--ref /tmp/ref] [--port 5146]
 * Copies the reference database (`bun scripts/gen-reference.ts /tmp/ref` builds it), ships it
 * with Litestream to a real OpenSSH server on loopback (scripts/faults/sshd.ts), then runs
 * scripts/restore-box.sh --start into an empty data folder and times it until /health answers.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LITESTREAM_BIN, replicateConfig } from "../../drivers/replication/litestream";
import { arg } from "./lib";
import { startSshd } from "./sshd";

const ref = process.argv.includes("--ref") ? process.argv[process.argv.indexOf("--ref") + 1]! : "/tmp/ref";
const port = arg("port", 5146);
if (!existsSync(join(ref, "ironbox.db"))) {
  console.error(`no reference database in ${ref}: bun scripts/gen-reference.ts ${ref}`);
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), "ironbox-restore-time-"));
const hq = await startSshd({ port });
let failed = false;
try {
  // The shop's side: a copy of the reference database, shipped to HQ once.
  const src = join(work, "shop", "ironbox.db");
  Bun.spawnSync(["mkdir", "-p", join(work, "shop")]);
  for (const f of ["", "-wal"]) if (existsSync(join(ref, `ironbox.db${f}`))) copyFileSync(join(ref, `ironbox.db${f}`), src + f);
  const url = hq.url("ref");
  const cfg = join(work, "litestream.yml");
  await Bun.write(cfg, replicateConfig({ dbPath: src, target: { url, keyPath: hq.keyPath }, metricsAddr: `127.0.0.1:${port + 1}` }));
  const t0 = performance.now();
  const ls = Bun.spawn([LITESTREAM_BIN, "replicate", "-config", cfg, "-no-expand-env"], { stdout: "pipe", stderr: "pipe" });
  let shipped = false;
  for (let i = 0; i < 1200 && !shipped; i++) {
    await Bun.sleep(500);
    const m = await fetch(`http://127.0.0.1:${port + 1}/metrics`)
      .then((r) => r.text())
      .catch(() => "");
    shipped = /litestream_replica_wal_offset\{[^}]*\} [1-9]/.test(m);
  }
  ls.kill("SIGTERM");
  await Promise.race([ls.exited, Bun.sleep(5000)]);
  ls.kill("SIGKILL");
  if (!shipped) throw new Error("the reference database never reached HQ");
  const du = Bun.spawnSync(["du", "-sm", hq.dir("ref")])
    .stdout.toString()
    .split("\t")[0];
  console.log(`shipped the reference database to HQ in ${((performance.now() - t0) / 1000).toFixed(1)} s (${du} MB at HQ, lz4)`);

  // The replacement box: an empty data folder, restored and started.
  const data = join(work, "new-box");
  const t1 = performance.now();
  const restore = Bun.spawn(
    ["sh", join(import.meta.dir, "../restore-box.sh"), "--url", url, "--key", hq.keyPath, "--data", data, "--start", "--port", String(port + 2)],
    {
      env: { ...process.env, IRONBOX_MDNS: "0", IRONBOX_SYSFS_ROOT: join(work, "sys"), IRONBOX_DEV_ROOT: join(work, "dev") },
      stdout: "pipe",
      stderr: "inherit",
    },
  );
  const reader = (restore.stdout as ReadableStream<Uint8Array>).getReader();
  let text = "";
  while (!/serving on port/.test(text)) {
    const r = await Promise.race([reader.read(), Bun.sleep(600_000).then(() => ({ done: true, value: undefined }))]);
    if (r.done) break;
    text += new TextDecoder().decode(r.value);
  }
  const total = (performance.now() - t1) / 1000;
  process.stdout.write(text);
  const health = await fetch(`http://127.0.0.1:${port + 2}/api/v1/health`).then((r) => r.json() as Promise<{ data: { database: string } }>);
  failed = !/serving on port/.test(text) || health.data.database !== "ok" || total > 300;
  console.log(`restored and serving in ${total.toFixed(1)} s (bar: 300 s): ${failed ? "FAIL" : "ok"}`);
  // The appliance it started, and that appliance's Litestream: stopped by their pids.
  const appliance = Number(/appliance pid (\d+)/.exec(text)?.[1]);
  const litestream = Number(
    await Bun.file(join(data, "litestream.pid"))
      .text()
      .catch(() => "0"),
  );
  for (const pid of [litestream, appliance, restore.pid]) {
    try {
      if (pid) process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  await restore.exited;
} catch (e) {
  console.error(e);
  failed = true;
} finally {
  await hq.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
