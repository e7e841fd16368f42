/**
 * What every report query shares: the read-only source, the caller's scope, keyset pages of
 * confirmed tickets, name lookups and the cent-exact allocation. Reports read keyset pages so
 * memory stays flat whatever the range; each page is its own read, so a long report never
 * holds one snapshot open against the WAL checkpoints. Money is integer cents throughout.
 */
import { addDays } from "../../domain/dates";
import { dayStartUtc } from "../../domain/schedule";
import type { Producer, Scope, Source } from "../../domain/reportRows";

export type { Producer, Scope, Source };

export const TICKETS_PER_PAGE = 1000;
export const LOGS_PER_PAGE = 4000;
/** Item ids per page of the item report (a range of ids: fewer rows when filters apply). */
export const ITEMS_PER_PAGE = 4000;

export const json = (ids: readonly number[]) => JSON.stringify(ids);
export const num = (v: unknown) => Number(v ?? 0);
export const str = (v: unknown) => (v == null ? "" : String(v));

/** The UTC instants of a Malta day range, inclusive of `to`: [start, end). */
export const instants = (q: { from: string; to: string }) => [dayStartUtc(q.from), dayStartUtc(addDays(q.to, 1))] as const;

export async function nameMap(src: Source, sql: string): Promise<Map<number, string>> {
  return new Map((await src.values(sql, [])).map((r) => [num(r[0]), str(r[1])]));
}

/** Customers' names (and mobiles), fetched for each page's new ids only. */
export function customerCache(src: Source) {
  const known = new Map<number, [string, string, number]>();
  return {
    async load(ids: Iterable<number>) {
      const missing = [...new Set(ids)].filter((id) => !known.has(id));
      for (let i = 0; i < missing.length; i += 5000) {
        const part = missing.slice(i, i + 5000);
        for (const r of await src.values("SELECT id, full_name, mobile, agent_id FROM customers WHERE id IN (SELECT value FROM json_each(?))", [json(part)])) {
          known.set(num(r[0]), [str(r[1]), str(r[2]), num(r[3])]);
        }
      }
      // Bounded: a chain-wide report over years meets every customer once.
      if (known.size > 200_000) known.clear();
    },
    get: (id: number) => known.get(id) ?? ["", "", 0],
  };
}

/** Ticket states asked by id (the UI's filter) or by name (any case), as the names items and logs store. */
export async function stateNames(src: Source, asked?: (number | string)[]): Promise<string[] | null> {
  if (!asked?.length) return null;
  const ids = asked.filter((a) => typeof a === "number");
  const names = asked.filter((a) => typeof a === "string").map((n) => n.toUpperCase());
  return (
    await src.values("SELECT name FROM ticket_states WHERE id IN (SELECT value FROM json_each(?)) OR upper(name) IN (SELECT value FROM json_each(?))", [
      json(ids),
      JSON.stringify(names),
    ])
  ).map((r) => str(r[0]));
}

/** Agents filter within the caller's scope: a shop asking for another shop's id gets nothing. */
export function agentFilter(scope: Scope, asked?: number[]): number[] | null {
  if (!asked?.length) return scope.agents;
  return scope.agents ? asked.filter((a) => scope.agents!.includes(a)) : asked;
}

export type TicketRow = { id: number; at: string; agent: number; customer: number; total: number; paid: number; charges: number };

/** Confirmed tickets of the range in pages, oldest first (keyset on confirmation time, id). */
export async function* ticketPages(src: Source, q: { from: string; to: string }, agents: number[] | null): AsyncGenerator<TicketRow[]> {
  const [start, end] = instants(q);
  let last: [string, number] = ["", 0];
  const byAgent = agents ? " AND agent_id IN (SELECT value FROM json_each(?))" : "";
  for (;;) {
    const rows = await src.values(
      `SELECT id, confirmed_at, agent_id, customer_id, total, total_paid, pickup_charge + delivery_charge FROM tickets
       WHERE confirmed_at >= ? AND confirmed_at < ? AND (confirmed_at, id) > (?, ?)${byAgent} ORDER BY confirmed_at, id LIMIT ${TICKETS_PER_PAGE}`,
      [start, end, last[0], last[1], ...(agents ? [json(agents)] : [])],
    );
    if (!rows.length) return;
    const page = rows.map((r) => ({
      id: num(r[0]),
      at: str(r[1]),
      agent: num(r[2]),
      customer: num(r[3]),
      total: num(r[4]),
      paid: num(r[5]),
      charges: num(r[6]),
    }));
    yield page;
    const l = page[page.length - 1]!;
    last = [l.at, l.id];
    if (rows.length < TICKETS_PER_PAGE) return;
  }
}

/**
 * Shares `amount` between weights in whole cents, so the parts add up to it exactly (largest
 * remainder). No weight at all shares equally.
 */
export function allocate(amount: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  const w = weights.map((x) => Math.max(0, x));
  let sum = w.reduce((a, b) => a + b, 0);
  if (sum === 0) w.fill(1), (sum = w.length);
  const exact = w.map((x) => (amount * x) / sum);
  const parts = exact.map(Math.floor);
  let left = amount - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left !== 0; k = (k + 1) % parts.length) {
    const step = left > 0 ? 1 : -1;
    parts[order[k]![1]]! += step;
    left -= step;
  }
  return parts;
}

export const withShop = (scope: Scope, shop: string) => (scope.hq ? [shop] : []);
