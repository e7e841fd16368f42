/**
 * "Takings" (issues 23 and 24), the one definition every screen and report uses: the sum of
 * payment rows taken in a period (refunds are negative rows), by shop and tender, in cents.
 * The SQL is plain text so each reader runs it on its own connection: the report worker on a
 * read-only libSQL connection, HQ's check on a restored site copy through bun:sqlite.
 */
import type { Tender } from "./model";

export type TenderCents = Record<Tender, number> & { total: number; payments: number; refunds: number };

export const noTakings = (): TenderCents => ({ cash: 0, card: 0, other: 0, total: 0, payments: 0, refunds: 0 });

/** The query for [start, end) (UTC ISO instants), over `agents` (null: every shop). */
export function takingsQuery(start: string, end: string, agents: readonly number[] | null): { sql: string; args: (string | number)[] } {
  return {
    sql: `SELECT agent_id, tender, coalesce(sum(amount), 0), sum(amount > 0), sum(amount < 0) FROM payments
          WHERE taken_at >= ? AND taken_at < ? ${agents ? "AND agent_id IN (SELECT value FROM json_each(?))" : ""} GROUP BY agent_id, tender`,
    args: agents ? [start, end, JSON.stringify(agents)] : [start, end],
  };
}

/** The query's rows as figures per shop, and for all of them together. */
export function takingsFrom(rows: readonly unknown[][]): { byAgent: Map<number, TenderCents>; all: TenderCents } {
  const byAgent = new Map<number, TenderCents>();
  const all = noTakings();
  for (const r of rows) {
    const agent = Number(r[0]);
    const tender = String(r[1]) as Tender;
    let a = byAgent.get(agent);
    if (!a) byAgent.set(agent, (a = noTakings()));
    for (const x of [a, all]) {
      if (tender in x) x[tender] += Number(r[2] ?? 0);
      x.total += Number(r[2] ?? 0);
      x.payments += Number(r[3] ?? 0);
      x.refunds += Number(r[4] ?? 0);
    }
  }
  return { byAgent, all };
}

/**
 * What was paid on some tickets, from their payment rows (refunds less), in cents: per item,
 * and per ticket for rows on no item (a pay-in-full's charges, an import). The sales report's
 * paid figures come from here, so they are the same money as the takings.
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
