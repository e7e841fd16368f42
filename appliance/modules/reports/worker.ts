/**
 * The report worker (a Bun Worker): runs one report or the home statistics on its own
 * read-only connection, off the request thread, and sends the encoded file in chunks. It
 * sends a chunk only against a credit from the request thread (one per chunk the response
 * took), so a slow client holds the report back instead of filling memory. The request
 * thread terminates it when the client goes away.
 *
 * The connection is @libsql/client's, set query_only. Not bun:sqlite, although it reads twice
 * as fast: two different SQLite libraries in one process do not see each other's POSIX locks,
 * so bun:sqlite closing "the last connection" checkpointed and truncated the WAL index that
 * libSQL still had mapped, and the box died of SIGBUS under the mixed-load bench (SQLite's
 * "How to corrupt": multiple copies of SQLite in the same program).
 */
import { dlopen, FFIType } from "bun:ffi";
import { Writable } from "node:stream";
import { createClient } from "@libsql/client";
import { csvRecord, XLSX_FORMATS, xlsxCell } from "./cells";
import type { ColumnType, ReportFormat, ReportName, ReportQuery } from "./model";
import { homeStatistics, REPORTS, type Scope, type Source } from "./queries";

declare const self: Worker;

export interface DbTarget {
  url: string;
  authToken?: string;
}
export type Job =
  | { kind: "report"; db: DbTarget; name: ReportName; query: ReportQuery; scope: Scope; format: ReportFormat; title: string; headers: string[]; types: ColumnType[] }
  | { kind: "home"; db: DbTarget; day: string; agents: number[] | null };
export type ToWorker = { type: "start"; job: Job; credits: number } | { type: "credit" };
export type FromWorker = { type: "chunk"; data: Uint8Array } | { type: "empty" } | { type: "end"; rows: number } | { type: "error"; message: string } | { type: "result"; data: unknown };

/** Chunks of about this size go out (CSV per page of rows; xlsx as the zip writer fills them). */
const CHUNK_BYTES = 256 * 1024;

function openSource(db: DbTarget): Source {
  const client = createClient({ url: db.url, authToken: db.authToken });
  const ready = client.execute("PRAGMA query_only = 1");
  return {
    async values(sql, args) {
      await ready;
      // libSQL's rows are indexable by column number already: no copy.
      return (await client.execute({ sql, args })).rows as unknown as unknown[][];
    },
  };
}

/**
 * Linux nice values are per thread: this worker's thread drops to nice 10, so on a box with
 * two cores the request thread (the counter) always gets the CPU first and the report takes
 * what is left. Elsewhere, or if libc cannot be reached, the worker runs at normal priority.
 */
function lowerPriority() {
  const gettid = { x64: 186, arm64: 178 }[process.arch as "x64" | "arm64"];
  if (process.platform !== "linux" || !gettid) return;
  try {
    const libc = dlopen("libc.so.6", { syscall: { args: [FFIType.i64], returns: FFIType.i64 }, setpriority: { args: [FFIType.i32, FFIType.u32, FFIType.i32], returns: FFIType.i32 } });
    libc.symbols.setpriority(0, Number(libc.symbols.syscall(gettid)), 10);
    libc.close();
  } catch {
    // Normal priority: slower counter answers while a report runs, nothing worse.
  }
}

/**
 * Freed strings and rows go back to the system only when the engine scavenges; a full
 * collection every so many rows keeps a two-million-row report near 100 MB instead of 300.
 */
const GC_EVERY_ROWS = 100_000;
let sinceGc = 0;
function collectNow(rows: number) {
  sinceGc += rows;
  if (sinceGc < GC_EVERY_ROWS) return;
  sinceGc = 0;
  Bun.gc(true);
}

let credits = 0;
let wake: (() => void) | null = null;
const post = (m: FromWorker, transfer?: Transferable[]) => self.postMessage(m, transfer ?? []);

async function send(data: Uint8Array) {
  while (credits <= 0) await new Promise<void>((r) => (wake = r));
  credits--;
  post({ type: "chunk", data }, [data.buffer]);
}

async function csv(job: Extract<Job, { kind: "report" }>, src: Source) {
  const encoder = new TextEncoder();
  let rows = 0;
  // UTF-8 with a byte-order mark, so spreadsheets read ċ ġ ħ ż right (spec §9).
  let text = `\uFEFF${csvRecord(
    job.headers.map(() => "text"),
    job.headers,
  )}`;
  for await (const batch of REPORTS[job.name](src, job.query, job.scope)) {
    for (const r of batch) text += csvRecord(job.types, r);
    rows += batch.length;
    collectNow(batch.length);
    if (rows > 0 && text.length >= CHUNK_BYTES / 2) {
      await send(encoder.encode(text));
      text = "";
    }
  }
  if (rows === 0) return post({ type: "empty" });
  if (text) await send(encoder.encode(text));
  post({ type: "end", rows });
}

async function xlsx(job: Extract<Job, { kind: "report" }>, src: Source) {
  let parts: Uint8Array[] = [];
  let size = 0;
  const sink = new Writable({
    write(chunk: Uint8Array, _enc, done) {
      parts.push(chunk);
      size += chunk.byteLength;
      done();
    },
  });
  const flush = async () => {
    if (!size) return;
    // A fresh buffer of its own: Node's small buffers share a pool, which cannot be transferred.
    const out = new Uint8Array(size);
    let at = 0;
    for (const p of parts) out.set(p, at), (at += p.byteLength);
    parts = [];
    size = 0;
    await send(out);
  };
  // Loaded only for an xlsx: it is most of the worker's memory (about 30 MB).
  const { default: ExcelJS } = await import("exceljs");
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet(job.title);
  sheet.columns = job.headers.map((header, i) => {
    const numFmt = XLSX_FORMATS[job.types[i]!];
    return { header, width: Math.max(10, header.length + 2), ...(numFmt ? { style: { numFmt } } : {}) };
  });
  let rows = 0;
  for await (const batch of REPORTS[job.name](src, job.query, job.scope)) {
    for (const r of batch) sheet.addRow(job.types.map((t, i) => xlsxCell(t, r[i] ?? null))).commit();
    rows += batch.length;
    collectNow(batch.length);
    if (size >= CHUNK_BYTES) await flush();
  }
  if (rows === 0) return post({ type: "empty" });
  sheet.commit();
  await book.commit();
  await flush();
  post({ type: "end", rows });
}

self.onmessage = async (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type === "credit") {
    credits++;
    wake?.();
    wake = null;
    return;
  }
  credits = m.credits;
  lowerPriority();
  try {
    const src = openSource(m.job.db);
    if (m.job.kind === "home") post({ type: "result", data: await homeStatistics(src, m.job.day, m.job.agents) });
    else if (m.job.format === "xlsx") await xlsx(m.job, src);
    else await csv(m.job, src);
  } catch (err) {
    post({ type: "error", message: err instanceof Error ? err.message : String(err) });
  }
};
