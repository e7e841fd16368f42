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
import { openDatabase } from "../../../db/client";
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

const say = (e: ImportEvent) => process.stdout.write(`${JSON.stringify(e)}\n`);

if (import.meta.main) {
  const job = (await Bun.stdin.json()) as ImportJob;
  const stop = new AbortController();
  process.on("SIGTERM", () => stop.abort());
  const database = await openDatabase(job.databaseUrl, job.authToken);
  const origin = Date.parse(job.now) - performance.now();
  const clock = { now: () => new Date(origin + performance.now()) };
  const litestream = () => litestreamAlive(job.dataDir);
  const checkpoint = checkpointEvery(database, IMPORT_CHECKPOINT_WRITES, litestream);
  // The box serving beside it gets its writes in between the pages.
  const letTheBoxIn = yieldToOthers(database.file);
  try {
    const report = await runImport(
      { db: database.db, clock, secret: await getBoxSecret(database.db), caller: job.caller },
      {
        from: job.from,
        user: job.user,
        password: job.password,
        pin: job.pin,
        dryRun: job.dry_run,
        signal: stop.signal,
        afterWrite: async () => (await checkpoint(), await letTheBoxIn()),
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
