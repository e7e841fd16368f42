// The HQ screen's import (Configuration → Import) and export: one import at a time, run in a
// child process of its own (importChild.ts; the request that starts it answers at once; the
// screen polls its progress), and the export zip made by a child process and streamed. Both
// through platform/child.ts, and both ended by the box's lifecycle (issue 32).
import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Db } from "../../../db/client";
import { type Child, spawnChild } from "../../platform/child";
import type { Clock } from "../../platform/clock";
import { conflict, unprocessable } from "../../platform/errors";
import type { EmployeeCaller } from "../auth/caller";
import type { ImportEvent, ImportJob } from "./importChild";
import type { ImportReport } from "./importer";
import { type ProgressView, progressTracker } from "./progress";
import { checkSourceHost } from "./url";

export interface ImportStart {
  from: string;
  user: string;
  password: string;
  pin: string;
  dry_run?: boolean;
}

export interface ImportStatus {
  state: "idle" | "running" | "done" | "failed";
  source: string | null;
  dry_run: boolean;
  progress: ProgressView | null;
  /** The report without PINs. */
  report: Omit<ImportReport, "pins"> | null;
  error: string | null;
  /** New employees' PINs: given once, to the admin who started the import, then forgotten. */
  pins: ImportReport["pins"];
}

const EXPORT_CHILD = join(import.meta.dir, "exportChild.ts");
const IMPORT_CHILD = join(import.meta.dir, "importChild.ts");
/** How long a child stopped with the box has to end by itself (the import: its current batch) before it is killed. */
const STOP_GRACE_MS = 10_000;
/** The box's export copies (`export-box-<time>.db`, and its journal) in the scratch folder: one at a time, and none left behind. */
const EXPORT_COPY = /^export-box-\d+\.db(-journal|-wal|-shm)?$/;

/** Ends a child: SIGTERM, then SIGKILL after `graceMs`; resolves when it has ended. */
async function endChild(c: Child, graceMs: number) {
  c.kill("SIGTERM");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((r) => (timer = setTimeout(r, graceMs)));
  if ((await Promise.race([c.ended.then(() => "ended"), late])) !== "ended") c.kill("SIGKILL");
  clearTimeout(timer);
  await c.ended;
}

export function createImportService(deps: {
  db: Db;
  clock: Clock;
  /** The box's database, as the import's child opens it (a `file:` URL or a libSQL server). */
  databaseUrl: string;
  databaseAuthToken?: string;
  databaseFile: string | null;
  dataDir: string;
  allowLoopback: boolean;
  stopGraceMs?: number;
}) {
  let status: ImportStatus = { state: "idle", source: null, dry_run: false, progress: null, report: null, error: null, pins: [] };
  let startedBy: number | null = null;
  /** The running children (platform/child.ts): ended by the lifecycle's stop. */
  let importing: Child | null = null;
  let exporting: { child: Child; done: Promise<void> } | null = null;
  const scratch = deps.databaseFile ? dirname(deps.databaseFile) : null;
  // A box killed -9 during an export leaves its copy (every shop's data): removed at start.
  if (scratch) for (const n of readdirSync(scratch)) if (EXPORT_COPY.test(n)) rmSync(join(scratch, n), { force: true });

  return {
    /** Starts an import in its own process and answers at once; 409 while one runs. */
    async start(caller: EmployeeCaller, s: ImportStart): Promise<ImportStatus> {
      if (status.state === "running") throw conflict("An import is running already");
      const problem = await checkSourceHost(s.from, { allowLoopback: deps.allowLoopback });
      if (problem) throw unprocessable(`from: ${problem}`);
      const track = progressTracker();
      startedBy = caller.employee.id;
      status = { state: "running", source: s.from, dry_run: Boolean(s.dry_run), progress: null, report: null, error: null, pins: [] };
      const mine = status;
      const job: ImportJob = {
        databaseUrl: deps.databaseUrl,
        authToken: deps.databaseAuthToken,
        dataDir: deps.dataDir,
        caller,
        now: deps.clock.now().toISOString(),
        from: s.from,
        user: s.user,
        password: s.password,
        pin: s.pin,
        dry_run: s.dry_run,
      };
      const settle = (e: ImportEvent) => {
        if ("progress" in e) return void (mine.progress = track(e.progress));
        const { pins = [], ...report } = e.report ?? ({} as Partial<ImportReport>);
        if ("error" in e) Object.assign(mine, { state: "failed", error: e.error.slice(0, 300), report: e.report ? report : null, pins });
        else Object.assign(mine, { state: "done", report, pins });
      };
      // Lines on stdout are the child's events; anything else (stderr) is only kept for the end.
      const child = spawnChild([process.execPath, IMPORT_CHILD], {
        input: JSON.stringify(job),
        nice: 10,
        onLine: (line) => {
          if (!line.startsWith("{")) return;
          try {
            settle(JSON.parse(line) as ImportEvent);
          } catch {}
        },
      });
      importing = child;
      void child.ended.then((end) => {
        if (importing === child) importing = null;
        // Killed before it said how it ended: the run is resumable (what was written stays, each batch whole).
        if (mine.state === "running")
          Object.assign(mine, {
            state: "failed",
            error:
              `the import stopped (${end.exit === "aborted" ? "the box was stopping" : (end.stderr.trim().split("\n").pop() ?? end.exit)}); start it again to resume`.slice(
                0,
                300,
              ),
          });
      });
      return { ...status };
    },

    /** Where the import is; the PINs only for the admin who started it, and only once. */
    status(caller: EmployeeCaller): ImportStatus {
      const out = { ...status, pins: caller.employee.id === startedBy ? status.pins : [] };
      if (out.pins.length && status.state !== "running") status.pins = [];
      return out;
    },

    /** Stops the import after the batch it is writing (SIGTERM: the child marks its run stopped). */
    cancel(): ImportStatus {
      importing?.kill("SIGTERM");
      return { ...status };
    },

    /** The export zip as a stream from its own process; the process is killed if the client goes. */
    exportZip(signal?: AbortSignal): Response {
      if (!deps.databaseFile || !scratch) throw unprocessable("Export reads a local database file; this box uses a remote libSQL server");
      if (exporting) throw conflict("An export is being made; try again when it has finished");
      // The copy is named here, so it is removed here however the child ends (killed -9 too).
      const copy = join(scratch, `export-box-${Date.now()}.db`);
      const child = spawnChild([process.execPath, EXPORT_CHILD, deps.databaseFile, scratch, copy], { nice: 10, signal });
      const mine = {
        child,
        done: child.ended.then(() => {
          for (const f of [copy, `${copy}-journal`, `${copy}-wal`, `${copy}-shm`]) rmSync(f, { force: true });
          if (exporting === mine) exporting = null;
        }),
      };
      exporting = mine;
      const day = deps.clock.now().toISOString().slice(0, 10);
      return new Response(child.stdout, {
        headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="ironbox-export-${day}.zip"`, "cache-control": "no-store" },
      });
    },

    /** The lifecycle's stop: the import ends after its batch (or is killed after the grace), the export is killed; their files go. */
    async stop() {
      const grace = deps.stopGraceMs ?? STOP_GRACE_MS;
      const ex = exporting;
      await Promise.all([importing ? endChild(importing, grace) : null, ex ? endChild(ex.child, 0).then(() => ex.done) : null]);
    },
  };
}
export type ImportService = ReturnType<typeof createImportService>;
