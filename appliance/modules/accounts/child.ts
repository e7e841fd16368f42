/**
 * The statement's and the aged report's process (issue 34): `bun child.ts` reads the job (JSON)
 * on standard input, makes the statement or the aged report with the same code the box would
 * (books.ts, so the figures are the ones the API always gave) on a read-only connection of its
 * own, and writes it to standard output: JSON, or CSV line by line as the reports stream theirs.
 * Off the box's process, like the reports and the journal (reports/child.ts says why a process):
 * an account of a busy hotel is years of charges, and the aged report reads every account.
 * Exit 0: done; 1: failed (why on stderr).
 */
import { createClient } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql";
import type { Db } from "../../../db/client";
import { setShopTimeZone } from "../../domain/dates";
import { fixedClock } from "../../platform/clock";
import type { EmployeeCaller } from "../auth/caller";
import { createBooks } from "./books";
import { agedCsv, statementCsv } from "./documents";

export type AccountReportJob = {
  url: string;
  authToken?: string;
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
  const client = createClient({ url: job.url, authToken: job.authToken });
  await client.execute("PRAGMA query_only = 1");
  // The query builder only (books.ts makes no relational query), so no schema object here.
  const books = createBooks({ db: drizzle(client) as unknown as Db, clock: fixedClock(job.now) });
  const made = job.kind === "statement" ? await books.statement(job.caller, job.account_id, job.from, job.to) : await books.aged(job.caller);
  const out = Bun.stdout.writer();
  if (job.format === "json") {
    out.write(JSON.stringify(made));
  } else {
    const lines =
      job.kind === "statement" ? statementCsv(made as Awaited<ReturnType<typeof books.statement>>) : agedCsv(made as Awaited<ReturnType<typeof books.aged>>);
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
  client.close();
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
