/**
 * The ledger's invariant (issue 24): every item's and every ticket's `total_paid` equals the
 * sum of its payment rows. The triggers of migration 0010 keep it on every write and those of
 * 0014 refuse any other write of it; this check proves it over a whole database: the box's
 * daily database check, after every import, HQ's check of each site copy, the tests over the
 * demo and reference data and the fault scripts. A file from before 0014, or one whose
 * triggers were dropped, is what it can still find. Plain SQL, so it runs on any connection
 * (libSQL, bun:sqlite).
 */
import { addDays, businessDay } from "../../domain/dates";
import { dayStartUtc } from "../../domain/schedule";

/** Tickets and items whose total differs from their rows: [kind, id, total_paid, rows]. */
const MISMATCHES = `
SELECT 'ticket', t.id, t.total_paid, coalesce(p.s, 0) FROM tickets t
  LEFT JOIN (SELECT ticket_id, sum(amount) AS s FROM payments GROUP BY ticket_id) p ON p.ticket_id = t.id
  WHERE t.total_paid <> coalesce(p.s, 0)
UNION ALL
SELECT 'item', i.id, i.total_paid, coalesce(p.s, 0) FROM ticket_sub_categories i
  LEFT JOIN (SELECT ticket_sub_category_id AS item, sum(amount) AS s FROM payments WHERE ticket_sub_category_id IS NOT NULL GROUP BY 1) p ON p.item = i.id
  WHERE i.total_paid <> coalesce(p.s, 0)`;
export const PAYMENT_SUMS_SQL = `${MISMATCHES}
LIMIT 100`;
/** How many there are: one pass over the whole database (a healthy one needs no second). */
export const PAYMENT_SUMS_COUNT_SQL = `SELECT count(*) FROM (${MISMATCHES})`;

export interface SumMismatch {
  kind: "ticket" | "item";
  id: number;
  total_paid: number;
  rows: number;
}

const mismatches = (rows: unknown[][]): SumMismatch[] =>
  rows.map((r) => ({ kind: r[0] as "ticket" | "item", id: Number(r[1]), total_paid: Number(r[2]), rows: Number(r[3]) }));

export async function checkPaymentSums(values: (sql: string) => Promise<unknown[][]> | unknown[][]): Promise<SumMismatch[]> {
  return mismatches(await values(PAYMENT_SUMS_SQL));
}

/** What a whole-database check reports: how many totals are off, and the first of them. */
export interface TotalsCheck {
  ok: boolean;
  count: number;
  first: SumMismatch[];
  /** Set when the check itself could not run (then ok is false: not proven). */
  error?: string;
}

/** How many shown: enough to find them, short enough for a panel line. */
const FIRST = 5;

/**
 * The check over a whole database: the count, and when any is off the first few. One
 * function for the box's daily check, the importer and HQ's check of a site copy.
 */
export async function checkTotals(values: (sql: string) => Promise<unknown[][]> | unknown[][]): Promise<TotalsCheck> {
  const count = Number((await values(PAYMENT_SUMS_COUNT_SQL))[0]?.[0] ?? 0);
  if (count === 0) return { ok: true, count: 0, first: [] };
  return { ok: false, count, first: (await checkPaymentSums(values)).slice(0, FIRST) };
}

/** checkTotals on a synchronous connection (bun:sqlite in a check's own process). */
export function checkTotalsSync(values: (sql: string) => unknown[][]): TotalsCheck {
  const count = Number(values(PAYMENT_SUMS_COUNT_SQL)[0]?.[0] ?? 0);
  if (count === 0) return { ok: true, count: 0, first: [] };
  return { ok: false, count, first: mismatches(values(PAYMENT_SUMS_SQL)).slice(0, FIRST) };
}

/** One line for a person: "2 paid totals differ from their payment rows (ticket 12: €5.00 for €4.00 in rows; item 40: …)". */
export function describeTotals(c: TotalsCheck): string {
  if (c.error) return c.error;
  if (c.ok) return "ok";
  const euro = (cents: number) => `€${(cents / 100).toFixed(2)}`;
  const first = c.first.map((m) => `${m.kind} ${m.id}: ${euro(m.total_paid)} for ${euro(m.rows)} in rows`).join("; ");
  return `${c.count} paid total${c.count === 1 ? "" : "s"} differ${c.count === 1 ? "s" : ""} from the payment rows (${first}${c.count > c.first.length ? "; …" : ""})`;
}
