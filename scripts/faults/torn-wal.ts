/**
 * A box that died while uploading a WAL segment still restores (scripts/restore-box.sh).
 *   bun scripts/faults/torn-wal.ts [--port 5161] [--short: the same]
 * Litestream's SFTP client writes a segment in place at HQ, so a box killed mid-upload leaves
 * its last segment torn there, and `litestream restore` of the latest fails on it ("cannot
 * download wal …: EOF") every time: the dead box could not be restored at all (dead-box.ts
 * met it 1 run in 2). Here the tear is made on purpose: a box streams to a real OpenSSH
 * server while clients write, is killed with -9 once HQ is level, and its last segment at HQ
 * is cut in half. First the control: before the cut, the restore has every acknowledged write.
 * Then, after the cut, the restore must succeed with integrity ok and lose no more than the
 * writes acknowledged in the last 3 s (a loose bar for a loaded machine: the restore keeps
 * every segment before the torn one, so it loses that segment's writes only, 5 of 141 here).
 * Exits non-zero when either misses its bar.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { arg, burst, check, newAcked, startBox } from "./lib";
import { startSshd } from "./sshd";

const port = arg("port", 5161);
const hq = await startSshd({ port });
const work = mkdtempSync(join(tmpdir(), "ironbox-torn-wal-"));
const site = "torn-wal";
let bad = false;

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
async function restore(into: string) {
  const p = Bun.spawn(["sh", join(import.meta.dir, "../restore-box.sh"), "--url", hq.url(site), "--key", hq.keyPath, "--data", into], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, text: `${err.trim()}\n${out.trim()}`.trim() };
}

try {
  const data = join(work, "box");
  const box = await startBox(data, port + 1, true, { IRONBOX_REPLICA_URL: hq.url(site), IRONBOX_REPLICA_KEY: hq.keyPath, IRONBOX_HTTPS: "0" });
  await linkLevel(box.base, 30_000);
  const acked = newAcked();
  const samples: { at: number; writes: number }[] = [];
  const sampler = setInterval(() => samples.push({ at: performance.now(), writes: acked.writes }), 50);
  const stop = await burst(box, acked, 2, "torn wal");
  await Bun.sleep(4000);
  await stop();
  const stoppedAt = performance.now();
  clearInterval(sampler);
  const last3s = acked.writes - (samples.filter((s) => s.at <= stoppedAt - 3000).pop()?.writes ?? 0);
  // Level, and then a few sync intervals more: the health's lag is in whole seconds.
  await linkLevel(box.base, 60_000);
  await Bun.sleep(3000);
  await linkLevel(box.base, 30_000);
  process.kill(Number(readFileSync(join(data, "litestream.pid"), "utf8")), "SIGKILL");
  box.child.kill("SIGKILL");
  await box.child.exited;

  const control = await restore(join(work, "control"));
  const c = control.code === 0 ? await check(join(work, "control", "ironbox.db"), acked) : undefined;
  const controlOk = !!c && c.integrity === "ok" && c.lost === 0 && c.totalsOff === 0;
  console.log(
    `control (no tear): ${acked.writes} acknowledged writes; ${c ? `integrity ${c.integrity}, lost ${c.lost}, totals off ${c.totalsOff}` : `restore failed: ${control.text}`}${controlOk ? "" : "  <-- FAIL"}`,
  );

  // The newest segment of the newest generation: the one a kill -9 would have torn.
  const gens = join(hq.dir(site), "generations");
  const gen = readdirSync(gens).sort((a, b) => statSync(join(gens, b)).mtimeMs - statSync(join(gens, a)).mtimeMs)[0]!;
  const segment = join(
    gens,
    gen,
    "wal",
    readdirSync(join(gens, gen, "wal"))
      .sort()
      .pop()!,
  );
  truncateSync(segment, Math.floor(statSync(segment).size / 2));
  const torn = await restore(join(work, "torn"));
  const t = torn.code === 0 ? await check(join(work, "torn", "ironbox.db"), acked) : undefined;
  const tornOk = !!t && t.integrity === "ok" && t.totalsOff === 0 && t.lost <= last3s;
  console.log(
    `last segment torn (${segment.split("/").slice(-3).join("/")}): ${t ? `integrity ${t.integrity}, lost ${t.lost} (bar ≤ ${last3s}, the last 3 s), totals off ${t.totalsOff}` : `restore failed: ${torn.text}`}${tornOk ? "" : "  <-- FAIL"}`,
  );
  if (torn.code === 0)
    console.log(
      torn.text
        .split("\n")
        .filter((l) => /cannot be read/.test(l))
        .join("\n"),
    );
  bad = !controlOk || !tornOk;
} finally {
  await hq.close();
  rmSync(work, { recursive: true, force: true });
}
console.log(bad ? "FAIL" : "OK: a torn last WAL segment at HQ costs its writes, not the restore");
process.exit(bad ? 1 : 0);
