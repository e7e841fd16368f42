/**
 * The import started from the HQ screen, in a process of its own (issue 32): the box starts it
 * through platform/child.ts (nice 10) and stops it with the box's lifecycle. Before, it ran
 * inside the box's process, outside the lifecycle: SIGTERM left it half-way in the box's own
 * event loop, and its JSON pages and libSQL pages took the box's memory.
 *
 * `bun importChild.ts`: the job as JSON on standard input (the password never on a command
 * line); one JSON line per event on standard output: `{"progress": …}` as it goes, then
 * `{"report": …}` or `{"error": …, "report"?: …}`. SIGTERM stops it after the batch being
 * written (the run is marked failed and a new import resumes it); the WAL is checkpointed as
 * it goes and once more at the end, PASSIVE only, as the box serves beside it.
 */
import { checkpointEvery, settleWal, yieldToOthers } from "../../../db/bulkWriter";
import { type Database, openDatabase } from "../../../db/client";
import type { EmployeeCaller } from "../auth/caller";
import { getBoxSecret } from "../auth/secrets";
import { litestreamAlive } from "../hqlink/supervisor";
import { type ImportReport, runImport } from "./importer";
import { IMPORT_CHECKPOINT_WRITES, type Progress } from "./types";

export interface ImportJob {
  databaseUrl: string;
  authToken?: string;
  /** The box's data dir: while its Litestream runs, Litestream alone checkpoints. */
  dataDir: string;
  caller: EmployeeCaller;
  /** The box's "now" when it started the job: the child's clock runs on from it (a test's fixed clock too). */
  now: string;
  from: string;
  user: string;
  password: string;
  pin: string;
  dry_run?: boolean;
}

export type ImportEvent = { progress: Progress } | { report: ImportReport } | { error: string; report?: ImportReport };

/** Writes between full garbage collections (see `afterEachWrite`). */
const GC_EVERY = 8;

/**
 * What the import does after each write, on the command line and here (issue 32): a checkpoint
 * every few writes (none while the box's Litestream runs: it alone checkpoints), a pause for a
 * box serving on the same file, and now and then a full garbage collection: the pages' JSON
 * and the bulk statements' bound strings live outside the JS heap's count, and a lazy collector
 * let them pile up (peak RSS at 150k tickets 268 MiB without it, 222 MiB with).
 */
export function afterEachWrite(database: Database, dataDir: string): { afterWrite: () => Promise<void>; litestream: () => boolean } {
  const litestream = () => litestreamAlive(dataDir);
  const checkpoint = checkpointEvery(database, IMPORT_CHECKPOINT_WRITES, litestream);
  const letTheBoxIn = yieldToOthers(database.file);
  let written = 0;
  return {
    litestream,
    afterWrite: async () => {
      await checkpoint();
      await letTheBoxIn();
      if (++written % GC_EVERY === 0) Bun.gc(true);
    },
  };
}

const say = (e: ImportEvent) => process.stdout.write(`${JSON.stringify(e)}\n`);

if (import.meta.main) {
  const job = (await Bun.stdin.json()) as ImportJob;
  const stop = new AbortController();
  process.on("SIGTERM", () => stop.abort());
  const database = await openDatabase(job.databaseUrl, job.authToken);
  const origin = Date.parse(job.now) - performance.now();
  const clock = { now: () => new Date(origin + performance.now()) };
  const { afterWrite, litestream } = afterEachWrite(database, job.dataDir);
  try {
    const report = await runImport(
      { db: database.db, clock, secret: await getBoxSecret(database.db), caller: job.caller, databaseFile: database.file ?? null },
      {
        from: job.from,
        user: job.user,
        password: job.password,
        pin: job.pin,
        dryRun: job.dry_run,
        signal: stop.signal,
        afterWrite,
        onProgress: (progress) => say({ progress }),
      },
    );
    say({ report });
  } catch (e) {
    const report = (e as { report?: ImportReport }).report;
    say({ error: (e as Error).message, ...(report ? { report } : {}) });
  }
  await settleWal(database, { truncate: false, paused: litestream }).catch(() => {});
  database.close();
  process.exit(0);
}
