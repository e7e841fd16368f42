/**
 * The statement's and the aged report's process (issue 34): `bun child.ts` reads the job (JSON)
 * on standard input, makes the statement or the aged report with the same code the box would
 * (books.ts, so the figures are the ones the API always gave) on a read-only connection of its
 * own, and writes it to standard output: JSON, or CSV line by line as the reports stream theirs.
 * Off the box's process, like the reports and the journal (reports/child.ts says why a process):
 * an account of a busy hotel is years of charges, and the aged report reads every account.
 * Exit 0: done; 1: failed (why on stderr).
 */
import { type Client, createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import type { Db } from "../../../db/client";
import { setShopTimeZone } from "../../domain/dates";
import { fixedClock } from "../../platform/clock";
import type { EmployeeCaller } from "../auth/caller";
import { type Books, createBooks, mergeAged } from "./books";
import { agedCsv, statementCsv } from "./documents";
import type { Aged } from "./model";

/** A database to read: the box's own, or at HQ a site's restored copy, named by `site`. */
export type AccountReportDb = { url: string; authToken?: string; site?: string };

export type AccountReportJob = {
  /** A statement reads one; the aged report each in turn (HQ: its own, then every site's copy). */
  dbs: AccountReportDb[];
  /** The caller, whose shop the account must be (checked again here, as the box does). */
  caller: EmployeeCaller;
  /** The box's "now" when asked (UTC ISO): the aged report's day, whatever time the process starts. */
  now: string;
  timeZone: string;
  format: "json" | "csv";
} & ({ kind: "statement"; account_id: number; from: string; to: string } | { kind: "aged" });

export const ACCOUNT_REPORT_EXIT = { done: 0, failed: 1 } as const;

/** Lines go out this many at a time; each write waits for the pipe (a slow client holds the process back). */
const LINES_PER_WRITE = 500;

async function main() {
  const job = (await Bun.stdin.json()) as AccountReportJob;
  if (!setShopTimeZone(job.timeZone)) throw new Error(`Unknown time zone ${job.timeZone}`);
  const clients: Client[] = [];
  const booksOf = async (target: AccountReportDb) => {
    const client = createClient({ url: target.url, authToken: target.authToken });
    clients.push(client);
    await client.execute("PRAGMA query_only = 1");
    // The query builder only (books.ts makes no relational query), so no schema object here.
    return createBooks({ db: drizzle(client) as unknown as Db, clock: fixedClock(job.now) });
  };
  let made: Awaited<ReturnType<Books["statement"]>> | Aged;
  if (job.kind === "statement") made = await (await booksOf(job.dbs[0]!)).statement(job.caller, job.account_id, job.from, job.to);
  else {
    // One database after the other: a chain's copies are read in turn, never side by side (two cores).
    const parts: Aged[] = [];
    for (const target of job.dbs) parts.push(await (await booksOf(target)).aged(job.caller, target.site ?? null));
    made = mergeAged(parts);
  }
  const out = Bun.stdout.writer();
  if (job.format === "json") {
    out.write(JSON.stringify(made));
  } else {
    const lines = job.kind === "statement" ? statementCsv(made as Awaited<ReturnType<Books["statement"]>>) : agedCsv(made as Aged);
    let chunk: string[] = [];
    for (const l of lines) {
      chunk.push(`${l}\r\n`);
      if (chunk.length < LINES_PER_WRITE) continue;
      out.write(chunk.join(""));
      await out.flush();
      chunk = [];
    }
    out.write(chunk.join(""));
  }
  await out.flush();
  for (const c of clients) c.close();
}

if (import.meta.main) {
  main().then(
    () => process.exit(ACCOUNT_REPORT_EXIT.done),
    (err) => {
      process.stderr.write(err instanceof Error ? err.message : String(err));
      process.exit(ACCOUNT_REPORT_EXIT.failed);
    },
  );
}
