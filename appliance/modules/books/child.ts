/**
 * The journal's process (issue 34): `bun child.ts` reads the job (JSON) on standard input,
 * reads the money of the range on its own read-only connection, writes the file to standard
 * output. Off the box's process, like the reports (reports/child.ts says why a process): a
 * chain's year is a few hundred thousand rows to add up. Exit 0: done; 3: nothing in the range;
 * 1: failed (why on stderr), and an unbalanced day is a failure: no such file ever leaves.
 */
import { Database } from "bun:sqlite";
import { setShopTimeZone } from "../../domain/dates";
import { shopNames, type Values } from "../money/reads";
import type { Chart } from "./accounts";
import { type Journal, journalFile, journals, unbalanced } from "./formats";
import type { JournalFormat } from "./model";
import { JOURNAL_SOURCES } from "./sources";

/** A database to read: the box's own, or (HQ) a site's restored copy, named by `site`. */
export interface JournalDb {
  url: string;
  authToken?: string;
  site?: string;
}

export interface JournalJob {
  /** Read one after the other: HQ's own database, then each site's copy (issue 34). */
  dbs: JournalDb[];
  from: string;
  to: string;
  agents: number[] | null;
  format: JournalFormat;
  chart: Chart;
  timeZone: string;
}
export const JOURNAL_EXIT = { done: 0, failed: 1, empty: 3 } as const;

async function open(job: JournalDb): Promise<Values> {
  if (job.url.startsWith("file:")) {
    const db = new Database(job.url.replace(/^file:(\/\/)?/, "").replace(/\?.*$/, ""), { readonly: true });
    db.run("PRAGMA busy_timeout = 5000");
    return (sql, args) => db.query(sql).values(...args) as unknown[][];
  }
  const { createClient } = await import("@libsql/client");
  const client = createClient({ url: job.url, authToken: job.authToken });
  return async (sql, args) => (await client.execute({ sql, args })).rows as unknown as unknown[][];
}

/** The file for a job over each database (a connection and, at HQ, its site), or why there is none. */
export async function makeJournal(
  dbs: { values: Values; site?: string }[],
  job: Omit<JournalJob, "dbs" | "timeZone">,
): Promise<{ file: string } | { empty: true } | { failed: string }> {
  const q = { from: job.from, to: job.to, agents: job.agents };
  const js: Journal[] = [];
  for (const db of dbs) {
    const lines = (await Promise.all(JOURNAL_SOURCES.map((s) => s.lines(db.values, q)))).flat();
    if (lines.length) js.push(...journals(lines, await shopNames(db.values), db.site));
  }
  if (!js.length) return { empty: true };
  // Day first, then each database in the order given (a stable sort keeps it).
  js.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const off = unbalanced(js);
  if (off.length) return { failed: `The journal does not balance: ${off.slice(0, 3).join("; ")}` };
  return { file: journalFile(job.format, js, job.chart) };
}

async function main(): Promise<number> {
  const job = (await Bun.stdin.json()) as JournalJob;
  if (!setShopTimeZone(job.timeZone)) throw new Error(`Unknown time zone ${job.timeZone}`);
  const dbs = [];
  for (const db of job.dbs) dbs.push({ values: await open(db), site: db.site });
  const made = await makeJournal(dbs, job);
  if ("empty" in made) return JOURNAL_EXIT.empty;
  if ("failed" in made) {
    process.stderr.write(made.failed);
    return JOURNAL_EXIT.failed;
  }
  await Bun.write(Bun.stdout, made.file);
  return JOURNAL_EXIT.done;
}

if (import.meta.main) {
  main().then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(err instanceof Error ? err.message : String(err));
      process.exit(JOURNAL_EXIT.failed);
    },
  );
}
