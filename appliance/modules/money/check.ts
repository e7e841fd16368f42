/**
 * The ledger's invariant (issue 24): every item's and every ticket's `total_paid` equals the
 * sum of its payment rows. The triggers of migration 0010 keep it on every write and those of
 * 0014 refuse any other write of it; this check proves it over a whole database: the box's
 * daily database check, after every import, HQ's check of each site copy, the tests over the
 * demo and reference data and the fault scripts. Since issue 34 it covers the deposit ledger too:
 * every payment by balance has its spend row of the same amount (`balance`, the payment's id),
 * and no customer's balance at a shop is below zero (`deposit`, the customer's id). A file from before 0014, or one whose
 * triggers were dropped, is what it can still find. Plain SQL, so it runs on any connection
 * (libSQL, bun:sqlite).
 */
import { addDays, businessDay } from "../../domain/dates";
import { dayStartUtc } from "../../domain/schedule";
import { ACCOUNT_MISMATCHES, ACCOUNT_TABLES_SQL } from "../accounts/check";

/** Tickets and items whose total differs from their rows: [kind, id, total_paid, rows]. */
const MISMATCHES = `
SELECT 'ticket', t.id, t.total_paid, coalesce(p.s, 0) FROM tickets t
  LEFT JOIN (SELECT ticket_id, sum(amount) AS s FROM payments GROUP BY ticket_id) p ON p.ticket_id = t.id
  WHERE t.total_paid <> coalesce(p.s, 0)
UNION ALL
SELECT 'item', i.id, i.total_paid, coalesce(p.s, 0) FROM ticket_sub_categories i
  LEFT JOIN (SELECT ticket_sub_category_id AS item, sum(amount) AS s FROM payments WHERE ticket_sub_category_id IS NOT NULL GROUP BY 1) p ON p.item = i.id
  WHERE i.total_paid <> coalesce(p.s, 0)
UNION ALL
SELECT 'balance', p.id, p.amount, coalesce(-d.amount, 0) FROM payments p LEFT JOIN deposits d ON d.payment_id = p.id
  WHERE p.tender = 'balance' AND (d.id IS NULL OR d.amount <> -p.amount)
UNION ALL
SELECT 'deposit', customer_id, sum(amount), 0 FROM deposits GROUP BY customer_id, agent_id HAVING sum(amount) < 0`;
export const PAYMENT_SUMS_SQL = `${MISMATCHES}
LIMIT 100`;
/** How many there are: one pass over the whole database (a healthy one needs no second). */
export const PAYMENT_SUMS_COUNT_SQL = `SELECT count(*) FROM (${MISMATCHES})`;

export interface SumMismatch {
  /** Accounts (issue 34) add their own kinds: accounts/check.ts; deposits theirs. */
  kind:
    | "ticket"
    | "item"
    | "account charge"
    | "invoice"
    | "invoice line"
    | "credit notes"
    | "invoice settled"
    | "payment allocations"
    | "account"
    | "invoice series"
    | "credit note series"
    | "balance"
    | "deposit";
  id: number;
  total_paid: number;
  rows: number;
}

const mismatches = (rows: unknown[][]): SumMismatch[] =>
  rows.map((r) => ({ kind: r[0] as SumMismatch["kind"], id: Number(r[1]), total_paid: Number(r[2]), rows: Number(r[3]) }));

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
  const first = count ? (await checkPaymentSums(values)).slice(0, FIRST) : [];
  const accounts = Number((await values(ACCOUNT_TABLES_SQL))[0]?.[0] ?? 0) ? mismatches(await values(ACCOUNT_MISMATCHES)) : [];
  return joined(count, first, accounts);
}

/** The tickets' count and first ones, with the accounts' (few, so all counted). */
function joined(count: number, first: SumMismatch[], accounts: SumMismatch[]): TotalsCheck {
  const n = count + accounts.length;
  return n === 0 ? { ok: true, count: 0, first: [] } : { ok: false, count: n, first: [...first, ...accounts].slice(0, FIRST) };
}

/** checkTotals on a synchronous connection (bun:sqlite in a check's own process). */
export function checkTotalsSync(values: (sql: string) => unknown[][]): TotalsCheck {
  const count = Number(values(PAYMENT_SUMS_COUNT_SQL)[0]?.[0] ?? 0);
  const first = count ? mismatches(values(PAYMENT_SUMS_SQL)).slice(0, FIRST) : [];
  const accounts = Number(values(ACCOUNT_TABLES_SQL)[0]?.[0] ?? 0) ? mismatches(values(ACCOUNT_MISMATCHES)) : [];
  return joined(count, first, accounts);
}

/** One line for a person: "2 paid totals differ from their payment rows (ticket 12: €5.00 for €4.00 in rows; item 40: …)". */
export function describeTotals(c: TotalsCheck): string {
  if (c.error) return c.error;
  if (c.ok) return "ok";
  const euro = (cents: number) => `€${(cents / 100).toFixed(2)}`;
  const first = c.first.map((m) => `${m.kind} ${m.id}: ${euro(m.total_paid)} for ${euro(m.rows)} in rows`).join("; ");
  return `${c.count} paid total${c.count === 1 ? "" : "s"} differ${c.count === 1 ? "s" : ""} from the payment rows (${first}${c.count > c.first.length ? "; …" : ""})`;
}
