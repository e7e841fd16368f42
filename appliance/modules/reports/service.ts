/**
 * Reports and the admin home statistics (issue 13). libSQL runs a query synchronously on the
 * event loop, so a report over two million items in the request would freeze every tablet:
 * each report runs in a process of its own (child.ts) with its own read-only connection, and
 * its file streams to the client through a pipe: the response reads the next chunk when the
 * client took the last one, and the report waits while the pipe is full (back-pressure). The
 * client going away (cancel, closed tab) kills the process.
 */
import { fileURLToPath } from "node:url";
import { businessDay, shopTimeZone } from "../../domain/dates";
import { printDate } from "../../domain/format";
import { spawnChild } from "../../platform/child";
import type { Clock } from "../../platform/clock";
import { tooMany } from "../../platform/errors";
import { agentScope, type EmployeeCaller } from "../auth/caller";
import { REPORT_COLUMNS, REPORT_TITLES, type ReportColumn, type ReportFormat, type ReportName, type ReportQuery } from "./model";
import type { HomeCents, Scope } from "./queries";
import { type DbTarget, EXIT, type Job } from "./job";

export type ReportFile = { kind: "empty" } | { kind: "file"; body: ReadableStream<Uint8Array>; filename: string; contentType: string };

const CONTENT_TYPES: Record<ReportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

const CHILD = fileURLToPath(new URL("./child.ts", import.meta.url));

/**
 * A running report process: its output as chunks, how it ended, and a way to stop it. At nice
 * 10: on a box with two cores the counter's requests always get the CPU first and the report
 * takes what is left.
 */
function startChild(job: Job, onStop: () => void) {
  const child = spawnChild([process.execPath, CHILD], { input: JSON.stringify({ ...job, timeZone: shopTimeZone() }), nice: 10, stderrLimit: 500 });
  const reader = child.stdout!.getReader();
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    child.kill();
    onStop();
  };
  return {
    /** The next chunk, or null at the end of the output. */
    next: async () => (await reader.read()).value ?? null,
    /** After the output ended: how the process ended (empty, done, or why it failed). */
    async outcome(): Promise<"done" | "empty" | { failed: string }> {
      const end = await child.ended;
      stop();
      if (end.code === EXIT.done) return "done";
      if (end.code === EXIT.empty) return "empty";
      return { failed: end.stderr || `exit ${end.code ?? end.exit}` };
    },
    stop,
  };
}

export function createReportService(deps: { db: DbTarget; clock: Clock; maxRunning?: number }) {
  const maxRunning = deps.maxRunning ?? 2;
  let running = 0;
  const homeInFlight = new Map<string, Promise<HomeCents[]>>();

  function spawn(job: Job) {
    // Two cores: more reports at once would take the counter's CPU.
    if (running >= maxRunning) throw tooMany("Other reports are being made; try again when one has finished");
    running++;
    return startChild(job, () => running--);
  }

  async function stream(
    r: { dbs: DbTarget[]; name: ReportName; query: ReportQuery; scope: Scope; columns: readonly ReportColumn[] },
    signal?: AbortSignal,
  ): Promise<ReportFile> {
    const format = r.query.format ?? "csv";
    const w = spawn({
      kind: "report",
      dbs: r.dbs,
      name: r.name,
      query: r.query,
      scope: r.scope,
      format,
      title: REPORT_TITLES[r.name],
      headers: r.columns.map((c) => c.header),
      types: r.columns.map((c) => c.type),
    });
    const onAbort = () => w.stop();
    signal?.addEventListener("abort", onAbort, { once: true });
    const done = () => signal?.removeEventListener("abort", onAbort);
    let head = await w.next().catch(() => null);
    if (!head) {
      const end = await w.outcome();
      done();
      if (end === "empty") return { kind: "empty" };
      if (signal?.aborted) throw new Error("The client went away");
      throw new Error(`The report failed: ${end === "done" ? "no output" : end.failed}`);
    }
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(ctrl) {
          const chunk = head ?? (await w.next());
          head = null;
          if (chunk) return ctrl.enqueue(chunk);
          const end = await w.outcome();
          done();
          if (end === "done") ctrl.close();
          else ctrl.error(new Error(end === "empty" ? "The report ended early" : end.failed));
        },
        cancel() {
          w.stop();
          done();
        },
      },
      { highWaterMark: 1 },
    );
    const filename = `${REPORT_TITLES[r.name]} ${printDate(r.query.from)} ${printDate(r.query.to)}.${format}`;
    return { kind: "file", body, filename, contentType: CONTENT_TYPES[format] };
  }

  /** The home figures of each database (one process for all), shared while being made. */
  function homes(dbs: DbTarget[], agents: number[] | null): Promise<HomeCents[]> {
    const day = businessDay(deps.clock.now());
    const key = `${day}|${agents ? agents.join(",") : "all"}|${dbs.map((d) => d.site ?? "").join(",")}`;
    const making = homeInFlight.get(key);
    if (making) return making;
    const made = (async () => {
      const w = spawn({ kind: "home", dbs, day, agents });
      const parts: Uint8Array[] = [];
      for (let c = await w.next(); c; c = await w.next()) parts.push(c);
      const end = await w.outcome();
      if (end !== "done") throw new Error(`The statistics failed: ${end === "empty" ? "no output" : end.failed}`);
      return JSON.parse(Buffer.concat(parts).toString("utf8")) as HomeCents[];
    })().finally(() => homeInFlight.delete(key));
    homeInFlight.set(key, made);
    return made;
  }

  return {
    /** Reports (or statistics) being made now. */
    running: () => running,

    /**
     * One report as a stream, or "empty" when it has no rows. Head quarters' reports cover
     * every shop with a Shop column; a shop's cover its own. `signal` is the request's: its
     * abort (the client went away before the first rows) stops the report.
     */
    report(caller: EmployeeCaller, name: ReportName, query: ReportQuery, signal?: AbortSignal): Promise<ReportFile> {
      const hq = caller.agent.is_hq;
      const columns = REPORT_COLUMNS[name].filter((c) => hq || !c.hqOnly);
      return stream({ dbs: [deps.db], name, query, scope: { agents: agentScope(caller), hq }, columns }, signal);
    },

    /**
     * A report over sites' copies at head quarters (issue 15): every shop of every site, each
     * row led by its site's name, the sites one after the other. Ids are the site's own.
     */
    siteReport(sites: DbTarget[], name: ReportName, query: ReportQuery, signal?: AbortSignal): Promise<ReportFile> {
      const columns = [{ header: "Site", type: "text" as const }, ...REPORT_COLUMNS[name]];
      return stream({ dbs: sites, name, query, scope: { agents: null, hq: true }, columns }, signal);
    },

    /**
     * The admin home's figures (cents), made in a report process: a month of a busy chain is
     * many rows. Requests for the same figures while they are being made share that one process,
     * so several admin tablets opening home (or one mounting it twice) take one report slot,
     * not all of them, and a report asked for meanwhile is not told to wait.
     */
    async home(caller: EmployeeCaller): Promise<HomeCents> {
      const [figures] = await homes([deps.db], agentScope(caller));
      return figures!;
    },

    /** Every shop's home figures in each site's copy (head quarters), one entry per site in order. */
    siteHome: (sites: DbTarget[]) => homes(sites, null),
  };
}

export type ReportService = ReturnType<typeof createReportService>;
