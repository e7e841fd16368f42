/**
 * "Takings" (issues 23, 24 and 31), the one aggregate every screen and report uses: the drawer
 * (GET /till/{date} and its close), the home statistics, the sales report, HQ's check of a site
 * copy and HQ's chain statistics. The rule, in docs/decisions/one-takings.md:
 *
 *  - a day's takings are the payment rows whose till day is that day (refunds are negative rows
 *    on the till day they were refunded). The till day is stored on every row when it is
 *    written: its calendar day in the shop's zone, or the next open day when that day's drawer
 *    was already closed. So a figure never moves once a drawer is closed, and every reader
 *    counts the same rows whatever its own zone or clock;
 *  - deposits a customer leaves ahead (and their refunds) are takings of the day and drawer they
 *    were taken in; spending the balance later (tender `balance`) is not (issue 34);
 *  - a row counts in the drawer of the shop of the employee who took it (the money is in
 *    their hands: a head-quarters driver's cash on a shop's ticket goes into HQ's drawer),
 *    else (an import with no employee) in the ticket's shop;
 *  - a row the import brought (issue 32) is dated from the source. Dated on an earlier day
 *    (imported = 1) it is history the old system counted and banked: in no drawer. Dated on the
 *    import's own day (imported = 2) the old till took it today and the cash is in today's
 *    drawer: it counts as this box's own rows do. So today's drawer, the home statistics and
 *    HQ's figures show the money taken today, at this box or by the till it replaces
 *    (docs/decisions/imported-payments.md). A ticket's balance (paidQuery) counts every row.
 *
 * The SQL is plain text so each reader runs it on its own connection: the box on libSQL (in
 * the close's transaction), the report worker on a read-only bun:sqlite or libSQL connection,
 * HQ's check on a restored site copy through bun:sqlite.
 */
import type { Tender } from "./model";

export type TenderCents = Record<Tender, number> & { total: number; payments: number; refunds: number };

export const noTakings = (): TenderCents => ({ cash: 0, card: 0, other: 0, account: 0, total: 0, payments: 0, refunds: 0 });

/** What a query may be split by beyond shop and tender: the till day, the employee, the ticket and item. */
export type TakingsKey = "day" | "employee" | "ticket" | "item";

export interface TakingsQuery {
  /** Till days, "YYYY-MM-DD", both inclusive. */
  from: string;
  to: string;
  /** The drawers' shops (null: every shop). */
  agents: readonly number[] | null;
  by?: readonly TakingsKey[];
  /** Only these tenders. */
  tenders?: readonly Tender[];
}

/** One group of rows, in cents. Keys not asked for are null. */
export interface TakingsRow {
  agent: number;
  tender: Tender;
  day: string | null;
  employee: number | null;
  ticket: number | null;
  item: number | null;
  cents: number;
  payments: number;
  refunds: number;
}

/** A runner of plain SQL with positional arguments, on whatever connection the reader has. */
export type Values = (sql: string, args: (string | number)[]) => unknown[][] | Promise<unknown[][]>;

/**
 * The drawer a row counts in (see the rule above). Employees never move to another shop
 * (employees/service.ts refuses it), so a row's drawer never changes after it is written.
 */
export const DRAWER_SQL = "coalesce((SELECT e.agent_id FROM employees e WHERE e.id = p.employee_id), p.agent_id)";

/** The rows that count in a drawer: all but the import's history (see the rule above). */
export const IN_DRAWER_SQL = "p.imported <> 1";

const COLUMN: Record<TakingsKey, string> = { day: "p.till_day", employee: "p.employee_id", ticket: "p.ticket_id", item: "p.ticket_sub_category_id" };

/** The query of the one aggregate. */
export function takingsQuery(q: TakingsQuery): { sql: string; args: (string | number)[] } {
  const by = q.by ?? [];
  const keys = (["day", "employee", "ticket", "item"] as const).map((k) => (by.includes(k) ? `d.${k}` : "NULL"));
  const tenders = q.tenders?.length ? "AND p.tender IN (SELECT value FROM json_each(?))" : "";
  const range = [q.from, q.to, ...(q.tenders?.length ? [JSON.stringify(q.tenders)] : [])];
  // `agent_id IN (every shop)` lets the (agent_id, till_day) index serve the till-day range.
  // A payment by the customer's balance (issue 34) is no money in the drawer: it came in as the
  // deposit, which counts (with its refunds) in the drawer of the shop that took it, that day.
  const inner = `SELECT ${DRAWER_SQL} AS agent, p.tender AS tender, ${(["day", "employee", "ticket", "item"] as const).map((k) => `${COLUMN[k]} AS ${k}`).join(", ")}, p.amount AS amount
    FROM payments p WHERE p.agent_id IN (SELECT id FROM agents) AND p.till_day >= ? AND p.till_day <= ? AND ${IN_DRAWER_SQL} AND p.tender <> 'balance'
    ${tenders}
    UNION ALL SELECT p.agent_id, p.tender, p.till_day, p.employee_id, NULL, NULL, p.amount
    FROM deposits p WHERE p.kind IN ('deposit', 'refund') AND p.agent_id IN (SELECT id FROM agents) AND p.till_day >= ? AND p.till_day <= ? ${tenders}`;
  const groups = ["d.agent", "d.tender", ...by.map((k) => `d.${k}`)].join(", ");
  return {
    sql: `SELECT d.agent, d.tender, ${keys.join(", ")}, coalesce(sum(d.amount), 0), sum(d.amount > 0), sum(d.amount < 0) FROM (${inner}) d
          ${q.agents ? "WHERE d.agent IN (SELECT value FROM json_each(?))" : ""} GROUP BY ${groups}`,
    args: [...range, ...range, ...(q.agents ? [JSON.stringify(q.agents)] : [])],
  };
}

/** The query's raw rows as TakingsRow. */
export function takingsRows(rows: readonly unknown[][]): TakingsRow[] {
  const n = (v: unknown) => (v == null ? null : Number(v));
  return rows.map((r) => ({
    agent: Number(r[0]),
    tender: String(r[1]) as Tender,
    day: r[2] == null ? null : String(r[2]),
    employee: n(r[3]),
    ticket: n(r[4]),
    item: n(r[5]),
    cents: Number(r[6] ?? 0),
    payments: Number(r[7] ?? 0),
    refunds: Number(r[8] ?? 0),
  }));
}

/** The one aggregate of takings, run on the reader's connection. */
export async function takings(values: Values, q: TakingsQuery): Promise<TakingsRow[]> {
  const { sql, args } = takingsQuery(q);
  return takingsRows(await values(sql, args));
}

/** Rows added up per tender, by a key of them (e.g. per shop, or per shop and day). */
export function sumTakings<K>(rows: readonly TakingsRow[], key: (r: TakingsRow) => K): Map<K, TenderCents> {
  const out = new Map<K, TenderCents>();
  for (const r of rows) {
    const k = key(r);
    let x = out.get(k);
    if (!x) out.set(k, (x = noTakings()));
    if (r.tender in x) x[r.tender] += r.cents;
    x.total += r.cents;
    x.payments += r.payments;
    x.refunds += r.refunds;
  }
  return out;
}

/** Rows added up, all together. */
export const totalTakings = (rows: readonly TakingsRow[]): TenderCents => sumTakings(rows, () => 0).get(0) ?? noTakings();

/**
 * What was paid on some tickets, from their payment rows (refunds less), in cents: per item,
 * and per ticket for rows on no item (a pay-in-full's charges, an import). This is not takings
 * (it is not a day's money, it is a ticket's balance): the sales report's Paid and Outstanding
 * against the tickets sold come from here, its Takings column from `takings`.
 */
export function paidQuery(ticketIds: readonly number[]): { sql: string; args: string[] } {
  return {
    sql: `SELECT ticket_id, ticket_sub_category_id, coalesce(sum(amount), 0) FROM payments
          WHERE ticket_id IN (SELECT value FROM json_each(?)) GROUP BY ticket_id, ticket_sub_category_id`,
    args: [JSON.stringify(ticketIds)],
  };
}

/** The query's rows: paid per item, and per ticket on no item. */
export function paidFrom(rows: readonly unknown[][]): { items: Map<number, number>; tickets: Map<number, number> } {
  const items = new Map<number, number>();
  const tickets = new Map<number, number>();
  for (const r of rows) {
    const cents = Number(r[2] ?? 0);
    if (r[1] == null) tickets.set(Number(r[0]), (tickets.get(Number(r[0])) ?? 0) + cents);
    else items.set(Number(r[1]), (items.get(Number(r[1])) ?? 0) + cents);
  }
  return { items, tickets };
}
