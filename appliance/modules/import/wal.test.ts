// Issue 32: the import keeps the WAL bounded as it goes (a checkpoint every few batches, on the
// checkpointer's thread) and the command-line import leaves the file flushed, its WAL empty.
// Sizes are counted in pages written, never in time.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { checkpointEvery, yieldToOthers } from "../../../db/bulkWriter";
import { litestreamAlive } from "../hqlink/supervisor";
import type { TestBox } from "../../test/harness";
import { ADMIN, importInto, type Served, serve, testBox } from "./testkit";

let src: TestBox;
let served: Served;

beforeAll(async () => {
  src = await testBox({ demo: true });
  served = serve(src);
}, 60_000);
afterAll(() => {
  served.stop();
  src.close();
});

const walBytes = (box: TestBox) => {
  const f = `${box.database.file}-wal`;
  return existsSync(f) ? statSync(f).size : 0;
};

/** Imports the demo a few records a batch into an empty box, sampling the WAL's size after each batch. */
async function importSampling(afterWrite?: (box: TestBox) => () => Promise<void>) {
  const box = await testBox({});
  // The box's own idle checkpointer stays out of it: only the import's checkpoints count here.
  await box.stop();
  const sizes: number[] = [];
  await importInto(box, served.url, { pageSize: 10, afterWrite: afterWrite?.(box), onProgress: () => sizes.push(walBytes(box)) });
  return { box, sizes, end: walBytes(box) };
}

test("the import checkpoints as it goes: the WAL stays a few batches long instead of the whole import", async () => {
  // The control: without the import's checkpoints the WAL holds everything it wrote.
  const without = await importSampling();
  const withIt = await importSampling((box) => checkpointEvery(box.database, 4));
  try {
    const tickets = await withIt.box.database.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM tickets`);
    expect(tickets[0]!.n).toBe((await src.database.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM tickets`))[0]!.n);
    expect(without.sizes.length).toBeGreaterThan(20);
    // Without: the WAL only grows, to the size of all that was written.
    expect(without.end).toBeGreaterThan(0);
    for (let i = 1; i < without.sizes.length; i++) expect(without.sizes[i]!).toBeGreaterThanOrEqual(without.sizes[i - 1]!);
    // With: never more than a small part of it (a WAL restarts from its start once checkpointed).
    const most = Math.max(...withIt.sizes, withIt.end);
    expect(most).toBeLessThan(without.end / 3);
  } finally {
    without.box.close();
    withIt.box.close();
  }
}, 180_000);

test("npm run import leaves the file flushed: the WAL checkpointed and truncated at its end", async () => {
  const box = await testBox({});
  await box.stop();
  box.database.close(); // the command line opens the database as the box would
  const run = Bun.spawn(
    [process.execPath, join(import.meta.dir, "../../../scripts/import.ts"), "--from", served.url, "--user", ADMIN.user, "--pin", ADMIN.pin],
    { env: { ...process.env, IRONBOX_DATA_DIR: box.dir, DATABASE_URL: "", IRONBOX_IMPORT_PASSWORD: ADMIN.password }, stdout: "pipe", stderr: "pipe" },
  );
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  try {
    expect(err).not.toContain("Import failed");
    expect(code).toBe(0);
    expect(out).toContain("Import run");
    // Everything is in the database file itself; nothing is left for the box's first checkpoint.
    expect(walBytes(box)).toBe(0);
    expect(statSync(box.database.file!).size).toBeGreaterThan(100_000);
  } finally {
    box.close();
  }
}, 180_000);

test("while the box's Litestream runs on the file the import does not checkpoint behind its back", async () => {
  const box = await testBox({});
  await box.stop();
  // A stand-in Litestream: a live process whose command line names it, in the box's pid file.
  const fake = Bun.spawn([process.execPath, "-e", "setTimeout(() => {}, 60000)", "litestream-stand-in"]);
  try {
    // Until the child has exec'd, its command line is still the test runner's (bounded wait).
    for (let i = 0; i < 100 && !readFileSync(`/proc/${fake.pid}/cmdline`, "utf8").includes("litestream"); i++) await Bun.sleep(20);
    expect(litestreamAlive(box.dir)).toBe(false);
    writeFileSync(join(box.dir, "litestream.pid"), String(fake.pid));
    expect(litestreamAlive(box.dir)).toBe(true);
    const activity = box.database.activity!;
    for (let i = 0; i < 5; i++) await box.database.client.execute({ sql: "INSERT INTO box_settings (key, value) VALUES (?, 'x')", args: [`wal-${i}`] });
    const before = activity.sinceCheckpoint;
    expect(before).toBeGreaterThanOrEqual(5);
    await checkpointEvery(box.database, 2, () => litestreamAlive(box.dir))();
    expect(activity.sinceCheckpoint).toBe(before); // stood aside
    fake.kill();
    await fake.exited;
    expect(litestreamAlive(box.dir)).toBe(false);
    await checkpointEvery(box.database, 2, () => litestreamAlive(box.dir))();
    expect(activity.sinceCheckpoint).toBe(0); // the control: checkpointed once it is gone
  } finally {
    fake.kill();
    box.close();
  }
}, 60_000);

test("the end's TRUNCATE is left out while a box has the file open (it would hold the box's writes)", async () => {
  const box = await testBox({});
  try {
    const ask = (file: string) =>
      Bun.spawnSync([
        process.execPath,
        "-e",
        `import { openElsewhere } from ${JSON.stringify(join(import.meta.dir, "../../../db/bulkWriter.ts"))}; console.log(openElsewhere(${JSON.stringify(file)}))`,
      ])
        .stdout.toString()
        .trim();
    // This test process is the box serving on it.
    expect(ask(box.database.file!)).toBe("true");
    // The control: a file nobody has open.
    const alone = join(box.dir, "nobody.db");
    writeFileSync(alone, "");
    expect(ask(alone)).toBe("false");
  } finally {
    box.close();
  }
}, 60_000);

test("the import pauses between its writes only while another process (a box) has the file open", async () => {
  const box = await testBox({});
  await box.stop();
  const alone = join(box.dir, "alone.db");
  writeFileSync(alone, "");
  /** Whether one call of `f` has settled after a few turns of the microtask queue (a pause has not). */
  const settlesAtOnce = async (f: () => Promise<void>) => {
    let done = false;
    const p = f().then(() => (done = true));
    for (let i = 0; i < 5; i++) await Promise.resolve();
    const at = done;
    await p;
    return at;
  };
  // A child holds the box's file open, as a box serving on it does.
  const holder = Bun.spawn(
    [process.execPath, "-e", `require("node:fs").openSync(${JSON.stringify(box.database.file)}, "r"); setTimeout(() => {}, 60000); console.log("open")`],
    {
      stdout: "pipe",
    },
  );
  try {
    const reader = holder.stdout.getReader();
    await reader.read(); // "open"
    expect(await settlesAtOnce(yieldToOthers(box.database.file))).toBe(false);
    // The control: nobody else has this file open; and a remote database has no file.
    expect(await settlesAtOnce(yieldToOthers(alone))).toBe(true);
    expect(await settlesAtOnce(yieldToOthers(undefined))).toBe(true);
  } finally {
    holder.kill();
    box.close();
  }
}, 60_000);
