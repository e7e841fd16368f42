// Issue 32: the nightly backup's child runs through the platform's runner (platform/child.ts)
// and stops with the box: a copy killed by its timeout or by the box stopping ends as a clear
// failure, and leaves no half-written copy in any folder.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nightlyDir } from "../../../db/backups";
import { type TestBox, testBox } from "../../test/harness";
import { backupInChild, createNightlyBackups } from "./backups";

let box: TestBox;
let dirs: string;
beforeAll(async () => {
  box = await testBox({ demo: true });
  dirs = mkdtempSync(join(tmpdir(), "ironbox-backup-runner-"));
}, 60_000);
afterAll(() => {
  box.close();
  rmSync(dirs, { recursive: true, force: true });
});

/** A job into a fresh folder that holds a half-written copy, as a killed backup leaves one. */
function job(name: string) {
  const dir = join(dirs, name);
  mkdirSync(dir);
  writeFileSync(join(dir, ".ironbox-old.db.partial"), "half a copy");
  return { source: box.database.file!, version: "9.9.9", at: "2026-11-22T01:30:00Z", dirs: [dir], keep: 7 };
}

test("a backup that outlives its timeout is killed, says so, and leaves no partial copy", async () => {
  const j = job("timeout");
  // 1 ms: the child is killed long before it can have copied anything.
  await expect(backupInChild(j, { timeoutMs: 1 })).rejects.toThrow("took longer than");
  await backupInChild(j, { timeoutMs: 1 }).catch(() => {});
  expect(readdirSync(j.dirs[0]!)).toEqual([]);
  // The control: with time to run, the same job makes a checked copy.
  const ok = await backupInChild(j);
  expect(existsSync(ok.file)).toBe(true);
  expect(readdirSync(j.dirs[0]!)).toEqual([ok.file.split("/").pop()!]);
}, 60_000);

test("a backup aborted (the box stopping) ends as stopped and leaves no partial copy", async () => {
  const j = job("abort");
  const stop = new AbortController();
  const running = backupInChild(j, { signal: stop.signal });
  stop.abort();
  await expect(running).rejects.toThrow("the box was stopping");
  await running.catch(() => {});
  expect(readdirSync(j.dirs[0]!)).toEqual([]);
}, 60_000);

test("stopping the nightly backups (the lifecycle's stop) kills a running copy and records it as failed", async () => {
  const logs: string[] = [];
  const backups = createNightlyBackups({
    db: box.database.db,
    clock: box.clock,
    dbFile: box.database.file!,
    version: "9.9.9",
    envDir: null,
    log: (m) => logs.push(m),
  });
  const stop = backups.start({ delayMs: 3_600_000 });
  const run = backups.runNow();
  await stop();
  const r = await run;
  expect(r.ok).toBe(false);
  expect(r.error).toContain("the box was stopping");
  expect((await backups.lastRun())?.ok).toBe(false);
  const left = existsSync(nightlyDir(box.database.file!)) ? readdirSync(nightlyDir(box.database.file!)) : [];
  expect(left.filter((n) => n.endsWith(".partial"))).toEqual([]);
}, 60_000);
