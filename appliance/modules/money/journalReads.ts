/**
 * What the accountant's journal (books module, issue 34) reads of the money this module owns:
 * per till day and drawer shop, the payment rows, the deposit ledger's money in and out of the
 * drawer, and the drawers' variances. The day and the shop are takings.ts's (a row's till day,
 * the drawer of its taker's shop), so the journal's figures are the drawer's figures. Plain SQL
 * on whatever connection the reader has (the journal runs in a process of its own).
 */
import { DRAWER_SQL, IN_DRAWER_SQL, type Values } from "./takings";

export interface JournalQuery {
  /** Till days, both inclusive. */
  from: string;
  to: string;
  /** The shops (null: all). */
  agents: readonly number[] | null;
}

/** Cents in and out per day, shop and tender: `in` the positive rows, `out` the negative ones (as a positive figure). */
export interface MoneyDay {
  day: string;
  agent: number;
  tender: string;
  in: number;
  out: number;
}

const shops = (q: JournalQuery) => (q.agents ? "AND d.agent IN (SELECT value FROM json_each(?))" : "");
const args = (q: JournalQuery) => [q.from, q.to, ...(q.agents ? [JSON.stringify(q.agents)] : [])];
const moneyDays = (rows: unknown[][]): MoneyDay[] =>
  rows.map((r) => ({ day: String(r[0]), agent: Number(r[1]), tender: String(r[2]), in: Number(r[3] ?? 0), out: Number(r[4] ?? 0) }));

/**
 * Payment rows (every tender, `balance` and `account` included) per till day, drawer shop and
 * tender. Imported rows are left out: the old system's money is in the old system's books.
 */
export async function paymentDays(values: Values, q: JournalQuery): Promise<MoneyDay[]> {
  const sql = `SELECT d.day, d.agent, d.tender, sum(max(d.amount, 0)), sum(max(-d.amount, 0)) FROM (
      SELECT p.till_day AS day, ${DRAWER_SQL} AS agent, p.tender AS tender, p.amount AS amount FROM payments p
      WHERE p.agent_id IN (SELECT id FROM agents) AND p.till_day >= ? AND p.till_day <= ? AND ${IN_DRAWER_SQL}) d
    WHERE 1 ${shops(q)} GROUP BY d.day, d.agent, d.tender ORDER BY d.day, d.agent, d.tender`;
  return moneyDays(await values(sql, args(q)));
}

/** Deposits taken (`in`) and given back (`out`) per till day, shop and tender: the drawer's side of the deposit ledger. */
export async function depositDays(values: Values, q: JournalQuery): Promise<MoneyDay[]> {
  const sql = `SELECT d.day, d.agent, d.tender, sum(max(d.amount, 0)), sum(max(-d.amount, 0)) FROM (
      SELECT till_day AS day, agent_id AS agent, tender, amount FROM deposits
      WHERE kind IN ('deposit', 'refund') AND agent_id IN (SELECT id FROM agents) AND till_day >= ? AND till_day <= ?) d
    WHERE 1 ${shops(q)} GROUP BY d.day, d.agent, d.tender ORDER BY d.day, d.agent, d.tender`;
  return moneyDays(await values(sql, args(q)));
}

/** A shop's deposits on a till day as HQ's Sites view shows them (cents). */
export interface DepositDay {
  agent_id: number;
  /** Deposits taken into the drawer that day. */
  taken: number;
  /** Deposits given back out of the drawer that day. */
  given_back: number;
  /** Balances spent on tickets that day (less spends refunded back into a balance). */
  spent: number;
  /** The liability: every customer's balance held at that shop, whatever the day. */
  held: number;
}

/**
 * Per shop: the day's deposits taken, given back and spent, and the balances held (issue 34:
 * the liability on the drawer's day and on HQ's view). Plain SQL with the day three times, so
 * HQ's copy check (bun:sqlite, synchronous) runs it as the box would.
 */
export const DEPOSIT_DAY_SQL = `SELECT agent_id,
    coalesce(sum(CASE WHEN till_day = ? AND kind = 'deposit' THEN amount END), 0),
    coalesce(sum(CASE WHEN till_day = ? AND kind = 'refund' THEN -amount END), 0),
    coalesce(sum(CASE WHEN till_day = ? AND kind = 'spend' THEN -amount END), 0),
    sum(amount)
  FROM deposits GROUP BY agent_id ORDER BY agent_id`;
export const depositDayArgs = (day: string) => [day, day, day];
export const depositDayRows = (rows: unknown[][]): DepositDay[] =>
  rows.map((r) => ({ agent_id: Number(r[0]), taken: Number(r[1]), given_back: Number(r[2]), spent: Number(r[3]), held: Number(r[4]) }));

/** A closed drawer's variance per tender (counted less expected, cents; standing closes only). */
export interface VarianceDay {
  day: string;
  agent: number;
  cash: number;
  card: number;
  other: number;
}

export async function varianceDays(values: Values, q: JournalQuery): Promise<VarianceDay[]> {
  const sql = `SELECT d.day, d.agent, d.cash, d.card, d.other FROM (
      SELECT day, agent_id AS agent, counted_cash - expected_cash AS cash, counted_card - expected_card AS card, counted_other - expected_other AS other
      FROM till_closes WHERE reopened_at IS NULL AND day >= ? AND day <= ?) d
    WHERE 1 ${shops(q)} ORDER BY d.day, d.agent`;
  return (await values(sql, args(q))).map((r) => ({ day: String(r[0]), agent: Number(r[1]), cash: Number(r[2]), card: Number(r[3]), other: Number(r[4]) }));
}

/** Shop names, for the journal's narration. */
export async function shopNames(values: Values): Promise<Map<number, string>> {
  return new Map((await values("SELECT id, name FROM agents", [])).map((r) => [Number(r[0]), String(r[1])]));
}
