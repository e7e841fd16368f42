/**
 * Reports and the admin home statistics (issue 13). libSQL runs a query synchronously on the
 * event loop, so a report over two million items in the request would freeze every tablet:
 * each report runs in its own Worker (worker.ts) with its own read-only connection, and its
 * file streams to the client in chunks, one more requested each time the response takes one
 * (back-pressure). The client going away (cancel, closed tab) terminates the worker.
 */
import { businessDay } from "../../domain/dates";
import { printDate } from "../../domain/format";
import type { Clock } from "../../platform/clock";
import { tooMany } from "../../platform/errors";
import { agentScope, type EmployeeCaller } from "../auth/caller";
import { REPORT_COLUMNS, REPORT_TITLES, type ReportFormat, type ReportName, type ReportQuery } from "./model";
import type { HomeCents } from "./queries";
import type { DbTarget, FromWorker, Job } from "./worker";

/** Chunks a worker may have sent ahead of the response (each up to ~256 KB). */
const CREDITS = 4;

export type ReportFile = { kind: "empty" } | { kind: "file"; body: ReadableStream<Uint8Array>; filename: string; contentType: string };

const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/** A running worker and the messages it sent that nobody has taken yet. */
function startWorker(job: Job, onStop: () => void) {
  // smol: a smaller heap that collects sooner (a report is a stream of short-lived rows).
  const worker = new Worker(new URL("./worker.ts", import.meta.url).href, { smol: true });
  const inbox: FromWorker[] = [];
  let waiting: ((m: FromWorker) => void) | null = null;
  let stopped = false;
  const deliver = (m: FromWorker) => {
    if (waiting) {
      const w = waiting;
      waiting = null;
      w(m);
    } else inbox.push(m);
  };
  worker.onmessage = (e: MessageEvent<FromWorker>) => deliver(e.data);
  worker.onerror = (e) => deliver({ type: "error", message: e.message || "The report worker failed" });
  worker.postMessage({ type: "start", job, credits: CREDITS });
  return {
    next: () => (inbox.length ? Promise.resolve(inbox.shift()!) : new Promise<FromWorker>((r) => (waiting = r))),
    credit: () => stopped || worker.postMessage({ type: "credit" }),
    stop() {
      if (stopped) return;
      stopped = true;
      worker.terminate();
      deliver({ type: "error", message: "The report was stopped" });
      onStop();
    },
  };
}

export function createReportService(deps: { db: DbTarget; clock: Clock; maxRunning?: number }) {
  const maxRunning = deps.maxRunning ?? 2;
  let running = 0;

  function spawn(job: Job) {
    // Two cores: more reports at once would take the counter's CPU.
    if (running >= maxRunning) throw tooMany("Other reports are being made; try again when one has finished");
    running++;
    return startWorker(job, () => running--);
  }

  return {
    /** Reports (or statistics) being made now. */
    running: () => running,

    /**
     * One report as a stream, or "empty" when it has no rows. Head quarters' reports cover
     * every shop with a Shop column; a shop's cover its own. `signal` is the request's: its
     * abort (the client went away before the first rows) stops the worker.
     */
    async report(caller: EmployeeCaller, name: ReportName, query: ReportQuery, signal?: AbortSignal): Promise<ReportFile> {
      const hq = caller.agent.is_hq;
      const columns = REPORT_COLUMNS[name].filter((c) => hq || !c.hqOnly);
      const format = query.format ?? "csv";
      const w = spawn({
        kind: "report",
        db: deps.db,
        name,
        query,
        scope: { agents: agentScope(caller), hq },
        format,
        title: REPORT_TITLES[name],
        headers: columns.map((c) => c.header),
        types: columns.map((c) => c.type),
      });
      const onAbort = () => w.stop();
      signal?.addEventListener("abort", onAbort, { once: true });
      const first = await w.next();
      if (first.type !== "chunk") {
        w.stop();
        signal?.removeEventListener("abort", onAbort);
        if (first.type === "empty") return { kind: "empty" };
        throw new Error(first.type === "error" ? `The report failed: ${first.message}` : "The report failed");
      }
      let head: Uint8Array | null = first.data;
      w.credit();
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(ctrl) {
            if (head) {
              ctrl.enqueue(head);
              head = null;
              return;
            }
            const m = await w.next();
            if (m.type === "chunk") {
              ctrl.enqueue(m.data);
              w.credit();
              return;
            }
            w.stop();
            signal?.removeEventListener("abort", onAbort);
            if (m.type === "end") ctrl.close();
            else ctrl.error(new Error(m.type === "error" ? m.message : "The report failed"));
          },
          cancel() {
            w.stop();
          },
        },
        { highWaterMark: 1 },
      );
      const filename = `${REPORT_TITLES[name]} ${printDate(query.from)} ${printDate(query.to)}.${format}`;
      return { kind: "file", body, filename, contentType: CONTENT_TYPES[format] };
    },

    /** The admin home's figures (cents), made in a worker: a month of a busy chain is many rows. */
    async home(caller: EmployeeCaller): Promise<HomeCents> {
      const w = spawn({ kind: "home", db: deps.db, day: businessDay(deps.clock.now()), agents: agentScope(caller) });
      try {
        const m = await w.next();
        if (m.type !== "result") throw new Error(m.type === "error" ? `The statistics failed: ${m.message}` : "The statistics failed");
        return m.data as HomeCents;
      } finally {
        w.stop();
      }
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
