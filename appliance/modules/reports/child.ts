/**
 * The report process: `bun child.ts` runs one report or the home statistics, off the box's
 * process, and writes the file (or the statistics as JSON) to its standard output. The job
 * arrives as JSON on standard input. Exit 0: done; 3: no rows; 1: failed (why on stderr).
 * Writes wait for the pipe, so a slow client holds the report back (back-pressure); the box
 * kills the process when the client goes away.
 *
 * A process, not a Worker: the fast reader is bun:sqlite (about twice libSQL's rows/s, which
 * the item report's 200k rows/s needs), and two different SQLite libraries in one process do
 * not see each other's POSIX locks: in a Worker, bun:sqlite closing what it took for the last
 * connection checkpointed and truncated the WAL index that libSQL still had mapped, and the box
 * died of SIGBUS under the mixed-load bench (SQLite's "How to corrupt", multiple copies of
 * SQLite in one program). Across processes the locks work as SQLite intends. Its memory is
 * its own too, so a report never grows the box's. The box starts it at nice 10 (platform/child.ts).
 */
import { Database } from "bun:sqlite";
import { Writable } from "node:stream";
import { setShopTimeZone } from "../../domain/dates";
import { csvRecord, XLSX_FORMATS, xlsxCell } from "./cells";
import { type DbTarget, EXIT, type Job } from "./job";
import { homeStatistics, type Producer, REPORTS, type Source } from "./queries";

/** Chunks of about this size go out (CSV per page of rows; xlsx as the zip writer fills them). */
const CHUNK_BYTES = 256 * 1024;

async function openSource(db: DbTarget): Promise<Source> {
  if (db.url.startsWith("file:")) {
    const sqlite = new Database(db.url.replace(/^file:(\/\/)?/, "").replace(/\?.*$/, ""), { readonly: true });
    sqlite.run("PRAGMA busy_timeout = 5000");
    return { values: async (sql, args) => sqlite.query(sql).values(...args) as unknown[][] };
  }
  // A remote libSQL server only: loaded on demand, since its native module would add tens of
  // MB to every report process reading a file.
  const { createClient } = await import("@libsql/client");
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

const stdout = Bun.stdout.writer();
/** Waits until the pipe took the chunk: the box reads only as fast as its client does. */
async function send(data: Uint8Array) {
  stdout.write(data);
  await stdout.flush();
}

type ReportJob = Extract<Job, { kind: "report" }>;

/** The report over each database in turn; a site's rows lead with its name (the Site column). */
async function* batches(job: ReportJob): Producer {
  for (const db of job.dbs) {
    const src = await openSource(db);
    const site = db.site;
    for await (const batch of REPORTS[job.name](src, job.query, job.scope)) yield site === undefined ? batch : batch.map((r) => [site, ...r]);
  }
}

async function csv(job: ReportJob) {
  const encoder = new TextEncoder();
  let rows = 0;
  // UTF-8 with a byte-order mark, so spreadsheets read ċ ġ ħ ż right (spec §9).
  let text = `\uFEFF${csvRecord(
    job.headers.map(() => "text"),
    job.headers,
  )}`;
  for await (const batch of batches(job)) {
    for (const r of batch) text += csvRecord(job.types, r);
    rows += batch.length;
    collectNow(batch.length);
    if (rows > 0 && text.length >= CHUNK_BYTES / 2) {
      await send(encoder.encode(text));
      text = "";
    }
  }
  if (rows === 0) return EXIT.empty;
  if (text) await send(encoder.encode(text));
  return EXIT.done;
}

async function xlsx(job: ReportJob) {
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
  for await (const batch of batches(job)) {
    for (const r of batch) sheet.addRow(job.types.map((t, i) => xlsxCell(t, r[i] ?? null))).commit();
    rows += batch.length;
    collectNow(batch.length);
    if (size >= CHUNK_BYTES) await flush();
  }
  if (rows === 0) return EXIT.empty;
  sheet.commit();
  await book.commit();
  await flush();
  return EXIT.done;
}

async function main(): Promise<number> {
  const job = (await Bun.stdin.json()) as Job;
  // Days and times in the zone the box has now, not the one this process's environment had.
  if (job.timeZone && !setShopTimeZone(job.timeZone)) throw new Error(`Unknown time zone ${job.timeZone}`);
  if (job.kind === "home") {
    const all = [];
    for (const db of job.dbs) all.push(await homeStatistics(await openSource(db), job.day, job.agents));
    await send(new TextEncoder().encode(JSON.stringify(all)));
    return EXIT.done;
  }
  return job.format === "xlsx" ? xlsx(job) : csv(job);
}

if (import.meta.main) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(err instanceof Error ? err.message : String(err));
      process.exit(EXIT.failed);
    },
  );
}
