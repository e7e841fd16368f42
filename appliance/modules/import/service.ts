// The HQ screen's import (Configuration → Import) and export: one import at a time, run in
// the background of the box's process (the request that starts it answers at once; the
// screen polls its progress), and the export zip made by a child process and streamed.
import { dirname, join } from "node:path";
import type { Db } from "../../../db/client";
import type { Clock } from "../../platform/clock";
import { conflict, unprocessable } from "../../platform/errors";
import type { EmployeeCaller } from "../auth/caller";
import { type ImportReport, runImport } from "./importer";
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

const CHILD = join(import.meta.dir, "exportChild.ts");

export function createImportService(deps: { db: Db; clock: Clock; secret: string; databaseFile: string | null; allowLoopback: boolean }) {
  let status: ImportStatus = { state: "idle", source: null, dry_run: false, progress: null, report: null, error: null, pins: [] };
  let startedBy: number | null = null;
  let abort: AbortController | null = null;
  let exporting = false;

  return {
    /** Starts an import and answers at once; 409 while one runs. */
    async start(caller: EmployeeCaller, s: ImportStart): Promise<ImportStatus> {
      if (status.state === "running") throw conflict("An import is running already");
      const problem = await checkSourceHost(s.from, { allowLoopback: deps.allowLoopback });
      if (problem) throw unprocessable(`from: ${problem}`);
      const track = progressTracker();
      abort = new AbortController();
      startedBy = caller.employee.id;
      status = { state: "running", source: s.from, dry_run: Boolean(s.dry_run), progress: null, report: null, error: null, pins: [] };
      const mine = status;
      void runImport(
        { db: deps.db, clock: deps.clock, secret: deps.secret, caller, databaseFile: deps.databaseFile },
        {
          from: s.from,
          user: s.user,
          password: s.password,
          pin: s.pin,
          dryRun: s.dry_run,
          signal: abort.signal,
          onProgress: (p) => (mine.progress = track(p)),
        },
      ).then(
        ({ pins, ...report }) => Object.assign(mine, { state: "done", report, pins }),
        (e: Error & { report?: ImportReport }) => {
          const { pins = [], ...report } = e.report ?? ({} as Partial<ImportReport>);
          Object.assign(mine, { state: "failed", error: e.message.slice(0, 300), report: e.report ? report : null, pins });
        },
      );
      return { ...status };
    },

    /** Where the import is; the PINs only for the admin who started it, and only once. */
    status(caller: EmployeeCaller): ImportStatus {
      const out = { ...status, pins: caller.employee.id === startedBy ? status.pins : [] };
      if (out.pins.length && status.state !== "running") status.pins = [];
      return out;
    },

    cancel(): ImportStatus {
      abort?.abort();
      return { ...status };
    },

    /** The export zip as a stream from its own process; the process is killed if the client goes. */
    exportZip(signal?: AbortSignal): Response {
      if (!deps.databaseFile) throw unprocessable("Export reads a local database file; this box uses a remote libSQL server");
      if (exporting) throw conflict("An export is being made; try again when it has finished");
      exporting = true;
      const child = Bun.spawn([process.execPath, CHILD, deps.databaseFile, dirname(deps.databaseFile)], { stdout: "pipe", stderr: "pipe" });
      const release = () => {
        exporting = false;
      };
      void child.exited.then(release);
      signal?.addEventListener("abort", () => child.kill(), { once: true });
      const day = deps.clock.now().toISOString().slice(0, 10);
      return new Response(child.stdout, {
        headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="ironbox-export-${day}.zip"`, "cache-control": "no-store" },
      });
    },
  };
}
export type ImportService = ReturnType<typeof createImportService>;
