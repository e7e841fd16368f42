/**
 * A dead box, restored from HQ: how many acknowledged writes are lost?
 *   bun scripts/faults/dead-box.ts [--runs 3] [--workers 4] [--port 5141] [--short: 1 run, 2 workers]
 * A box streams to a real OpenSSH server on loopback (scripts/faults/sshd.ts) while several
 * clients write (open a ticket, add items, pay: scripts/faults/lib.ts); at a random moment the
 * box and its Litestream are killed with -9 and its data folder deleted (the disk is gone).
 * scripts/restore-box.sh then restores the site's replica into an empty folder, and every
 * acknowledged ticket, item and payment is looked for. Bar: no more lost than were
 * acknowledged in the last second before the failure, or in the last two when the box died
 * uploading a segment (torn at HQ: the restore says so and keeps every segment before it).
 * Exits non-zero when a run misses it.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { arg, burst, check, newAcked, startBox } from "./lib";
import { startSshd } from "./sshd";

const runs = arg("runs", 3, 1);
const workers = arg("workers", 4, 2);
const port = arg("port", 5141);
const hq = await startSshd({ port });
const work = mkdtempSync(join(tmpdir(), "ironbox-dead-box-"));
let failures = 0;

const kill9 = (pid: number) => {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
};

async function linkLevel(base: string, ms: number) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // Bounded: a box that stops answering must not hold the run.
    const h = (await fetch(`${base}/health`, { signal: AbortSignal.timeout(5000) })
      .then((r) => r.json())
      .catch(() => null)) as { data: { link: { state: string; lag_seconds: number | null } } } | null;
    if (h?.data.link.state === "ok" && h.data.link.lag_seconds === 0) return;
    await Bun.sleep(200);
  }
  throw new Error("the box's link to HQ never became level");
}

try {
  for (let run = 1; run <= runs; run++) {
    const data = join(work, `box-${run}`);
    const site = `dead-box-${run}`;
    const box = await startBox(data, port + 1, true, {
      IRONBOX_REPLICA_URL: hq.url(site),
      IRONBOX_REPLICA_KEY: hq.keyPath,
      IRONBOX_HTTPS: "0",
    });
    await linkLevel(box.base, 30_000);
    const acked = newAcked();
    const stop = await burst(box, acked, workers, `dead box ${run}`);
    // How many writes were acknowledged when: sampled every 50 ms, for "the last second".
    const samples: { at: number; writes: number }[] = [];
    const sampler = setInterval(() => samples.push({ at: performance.now(), writes: acked.writes }), 50);
    await Bun.sleep(3000 + Math.random() * 4000);
    // The box dies with its Litestream: nothing more leaves it.
    const litestream = Number(readFileSync(join(data, "litestream.pid"), "utf8"));
    kill9(litestream);
    kill9(box.child.pid);
    const diedAt = performance.now();
    clearInterval(sampler);
    await box.child.exited;
    await stop();
    const since = (ms: number) => acked.writes - (samples.filter((s) => s.at <= diedAt - ms).pop()?.writes ?? 0);
    const lastSecond = since(1000);
    const lastTwo = since(2000);
    rmSync(data, { recursive: true, force: true });

    const restoredDir = join(work, `restored-${run}`);
    const t0 = performance.now();
    const restore = Bun.spawn(["sh", join(import.meta.dir, "../restore-box.sh"), "--url", hq.url(site), "--key", hq.keyPath, "--data", restoredDir], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(restore.stdout).text(), new Response(restore.stderr).text(), restore.exited]);
    const restoreSeconds = ((performance.now() - t0) / 1000).toFixed(1);
    if (code !== 0) {
      failures++;
      console.log(`run ${run}: the restore failed (${code}): ${err.trim() || out.trim()}  <-- FAIL`);
      continue;
    }
    const r = await check(join(restoredDir, "ironbox.db"), acked);
    // The box died uploading a segment, torn at HQ (the restore says so): that segment's writes
    // (one 500 ms sync) are lost with those made during its upload and after: the bar is then
    // the last two seconds. The restore keeps every segment before it (drivers/replication/torn.ts).
    const torn = /newest WAL segment at HQ cannot be read[^\n]*/.exec(`${err}\n${out}`)?.[0];
    const bar = torn ? lastTwo : lastSecond;
    const ok = r.integrity === "ok" && r.totalsOff === 0 && r.lost <= bar;
    if (!ok) failures++;
    console.log(
      `run ${run}: ${acked.writes} acknowledged writes (${acked.tickets.size} tickets, ${acked.items.size} items, ${acked.paid.size} payments), ${lastSecond} in the last second, ${lastTwo} in the last two; ` +
        `restored in ${restoreSeconds} s, integrity ${r.integrity}; lost ${r.lost} (bar ${bar}${torn ? ", torn segment" : ""}); totals off ${r.totalsOff}${ok ? "" : "  <-- FAIL"}`,
    );
    if (torn) console.log(`  ${torn}`);
    rmSync(restoredDir, { recursive: true, force: true });
  }
} finally {
  await hq.close();
  rmSync(work, { recursive: true, force: true });
}
console.log(
  `${runs} dead boxes restored from HQ: ${failures ? `${failures} FAILED` : "each lost no more than the writes of its last second (two when it died uploading)"}`,
);
process.exit(failures ? 1 : 0);
