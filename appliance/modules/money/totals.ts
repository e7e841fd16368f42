import { join } from "node:path";
import { runChild } from "../../platform/child";
import { checkTotals, type TotalsCheck } from "./check";

const CHILD = join(import.meta.dir, "totalsChild.ts");

/** What a caller has to check: the box's database file, else its connection (a remote libSQL server does the work itself). */
export interface TotalsSource {
  file: string | null;
  values: (sql: string) => Promise<unknown[][]>;
}

/**
 * The ledger's invariant over the whole database (check.ts), off the event loop when the
 * database is a local file: in a process of its own at nice 10, so the counter comes first.
 * A check that could not run says so rather than passing.
 */
export async function checkTotalsOffLoop(src: TotalsSource, timeoutMs = 30 * 60_000): Promise<TotalsCheck> {
  if (!src.file) return checkTotals(src.values);
  const end = await runChild([process.execPath, CHILD, src.file], { nice: 10, timeoutMs });
  if (end.exit === "ok") return JSON.parse(end.stdout) as TotalsCheck;
  const why = end.exit === "timeout" ? "it took too long" : (/^\s*\w*Error: (.*)$/m.exec(end.stderr)?.[1] ?? `the check stopped (exit ${end.code})`);
  return { ok: false, count: 0, first: [], error: `The totals check could not run: ${why.slice(0, 300)}` };
}
