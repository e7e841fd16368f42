/**
 * The fault scripts in their short mode (`--short`: a few runs each), so `npm test` shows a
 * regression in crash safety; each script exits non-zero when a run misses its bar. Every run
 * is bounded: the script is killed, with the boxes it started, at its budget. The long runs
 * behind the README's figures stay manual (docs/benchmarks.md). A script killed at its budget
 * may leave its mount behind (power-cut, disk-full clean up only when they end by themselves).
 * The machine runs them as root, like the rest of the suite (a real sshd, loop mounts).
 *
 * Not here yet (the lead's call), from the first short runs (2026-11-25, issue 23, a machine
 * at load 20-30 with other sshd tests running):
 * - dead-box.ts failed 1 run of 2: the restore failed, "cannot download wal …/00000000: EOF":
 *   Litestream's SFTP client writes a segment in place, so the box killed mid-upload left it
 *   torn at HQ. restore-box now restores up to the segment before (torn-wal.ts, below, makes
 *   the tear on purpose), 5 runs of 5 passed afterwards (load 3); but a restore past a torn
 *   segment leaves out up to about 2 s of writes, more than dead-box's bar of the last
 *   second, so it stays out while the tear can happen in a run;
 * - link-outage.ts failed 1 run of 3: HQ's copy never held the tickets and the link never got
 *   level again after a 5 s outage; the other two caught up in 24 and 29 s. Those catch-ups
 *   are the link's watchdog: Litestream 0.3.13 hangs without a word on its SFTP connection
 *   once the server restarts, and is restarted after 20 s of no progress. No way for the link
 *   to stay stuck was found in the code; at load 20-30, Litestream (nice 10, one core) gets
 *   little CPU. Later runs (2026-11-25, load 3-28) caught up in 20.7 and 18.1 s. A failed run
 *   now prints the link's log lines;
 * - restore-time.ts needs the 1 GB reference set, and measures time, not loss.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const randomPort = () => 20000 + Math.floor(Math.random() * 20000);

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
    expect(await runShort("disk-full.ts", 170_000, ["--port", String(randomPort())])).toBe(0);
  }, 180_000);

  test("kill -9 during a bulk send: no message lost or sent twice", async () => {
    expect(await runShort("messages-kill9.ts", 150_000)).toBe(0);
  }, 160_000);

  test("HQ restores while the shop uploads: every copy passes the integrity check", async () => {
    expect(await runShort("hq-restore-under-upload.ts", 150_000)).toBe(0);
  }, 160_000);

  test("a WAL segment torn at HQ by a box's death: the restore still succeeds", async () => {
    expect(await runShort("torn-wal.ts", 120_000, ["--port", String(randomPort())])).toBe(0);
  }, 130_000);

  // One run is its short mode (about 30 s; it ignores --short).
  test("a stalled printer: the counter keeps answering, the stuck job fails with its reason", async () => {
    expect(await runShort("printer-stall.ts", 90_000)).toBe(0);
  }, 100_000);
});
