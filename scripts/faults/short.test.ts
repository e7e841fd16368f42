/**
 * The fault scripts in their short mode (`--short`: a few runs each), so `npm test` shows a
 * regression in crash safety; each script exits non-zero when a run misses its bar. Every run
 * is bounded: the script is killed, with the boxes it started, at its budget. The long runs
 * behind the README's figures stay manual (docs/benchmarks.md). A script killed at its budget
 * may leave its mount behind (power-cut, disk-full clean up only when they end by themselves).
 * The machine runs them as root, like the rest of the suite (a real sshd, loop mounts).
 *
 * Added later (2026-11-26, issue 23), once their misses were fixed in the product:
 * - dead-box.ts: a box killed mid-upload leaves its newest WAL segment torn at HQ; the restore
 *   went back to the second before it (SFTP keeps whole seconds) and lost up to about 2 s of
 *   writes. It now keeps every segment before the torn one (drivers/replication/torn.ts), and
 *   the bar is the last two seconds when the box died uploading (the restore says so);
 * - link-outage.ts: Litestream 0.3.13 hangs on its SFTP connection once the server restarts,
 *   and the watchdog restarted it only after 20 s of no progress (18-29 s catch-ups, one
 *   never). HQ is now probed after 3 s behind, every second while silent, and Litestream is
 *   restarted as soon as HQ answers again (hqlink/machine.ts); an upload the outage cut off
 *   leaves a torn segment that a restarted Litestream cannot start past ("cannot determine
 *   replica position: EOF", the run that never caught up): the link then starts a new
 *   generation. 3 of 3 short runs passed in 29-33 s, all at HQ 5.1-7.6 s after the return.
 * Not here:
 * - restore-time.ts needs the 1 GB reference set, and measures time, not loss.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { freePort } from "../../appliance/test/ports";

// The scripts use --port p and p + 1, p + 2 for their other servers: a block asked of the kernel
// (appliance/test/ports.ts), so a second run beside this one never takes the same.
const ports = async () => String(await freePort(3));

async function runShort(script: string, budgetMs: number, args: string[] = []) {
  // A process group of its own (setsid), so the boxes it started die with it at the budget.
  const child = Bun.spawn(["setsid", process.execPath, join(import.meta.dir, script), "--short", ...args], { stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      child.kill("SIGKILL");
    }
  }, budgetMs);
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  // On failure the script's own report says which bar it missed.
  if (code !== 0) console.error(`${script} --short exited ${code}${child.signalCode ? ` (${child.signalCode}, budget ${budgetMs} ms)` : ""}\n${out}\n${err}`);
  return code;
}

// One after another: each boots real boxes, and they would slow each other past their bars.
describe("fault scripts, short mode", () => {
  test("kill -9 during counter writes: nothing acknowledged lost", async () => {
    expect(await runShort("kill9.ts", 150_000)).toBe(0);
  }, 160_000);

  test("a power cut (frozen box, disk image copied): nothing acknowledged lost", async () => {
    expect(await runShort("power-cut.ts", 150_000)).toBe(0);
  }, 160_000);

  test("disk full: every refusal a 507, writes again once space is freed, nothing lost", async () => {
    expect(await runShort("disk-full.ts", 170_000, ["--port", await ports()])).toBe(0);
  }, 180_000);

  test("kill -9 during a bulk send: no message lost or sent twice", async () => {
    expect(await runShort("messages-kill9.ts", 150_000)).toBe(0);
  }, 160_000);

  test("HQ restores while the shop uploads: every copy passes the integrity check", async () => {
    expect(await runShort("hq-restore-under-upload.ts", 150_000)).toBe(0);
  }, 160_000);

  test("a WAL segment torn at HQ by a box's death: the restore still succeeds", async () => {
    expect(await runShort("torn-wal.ts", 120_000, ["--port", await ports()])).toBe(0);
  }, 130_000);

  test("a dead box restored from HQ into an empty folder: no more lost than its last second (two if it died uploading)", async () => {
    expect(await runShort("dead-box.ts", 120_000, ["--port", await ports()])).toBe(0);
  }, 130_000);

  test("HQ's sshd down 5 s: the counter unaffected, every acknowledged ticket at HQ within 60 s of its return", async () => {
    expect(await runShort("link-outage.ts", 150_000, ["--port", await ports()])).toBe(0);
  }, 160_000);

  // One run is its short mode (about 30 s; it ignores --short).
  test("a stalled printer: the counter keeps answering, the stuck job fails with its reason", async () => {
    expect(await runShort("printer-stall.ts", 90_000)).toBe(0);
  }, 100_000);
});
