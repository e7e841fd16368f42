/**
 * The four reports and the home statistics as SQL over a read-only connection. They run in
 * the report worker (worker.ts), never on the request thread. Reports read keyset pages (by
 * confirmation time, or log time) so memory stays flat whatever the range; each page is its
 * own read, so a long report never holds one snapshot open against the WAL checkpoints.
 * Money is integer cents throughout.
 */
import { percentOfCents } from "../../domain/money";
import { addDays } from "../../domain/dates";
import { vatSplit } from "../../domain/pricing";
import { dayStartUtc, weekOf, weekStart } from "../../domain/schedule";
import { DONE_STATES } from "../../domain/states";
import { type Cell, maltaDay } from "./cells";
import type { ReportName, ReportQuery } from "./model";
import { paymentsReport, tillReport } from "../payments/reports";
import { takingsFrom, takingsQuery } from "../payments/takings";

/** A read-only connection: the rows of a query as arrays, in column order. */
export interface Source {
  values(sql: string, args: (string | number | null)[]): Promise<unknown[][]>;
}

/** Who the report is for: every shop (`agents` null, a Shop column) or some shops. */
export interface Scope {
  agents: number[] | null;
  hq: boolean;
}

const TICKETS_PER_PAGE = 1000;
const LOGS_PER_PAGE = 4000;
/** Item ids per page of the item report (a range of ids: fewer rows when filters apply). */
const ITEMS_PER_PAGE = 4000;

const json = (ids: readonly number[]) => JSON.stringify(ids);
const num = (v: unknown) => Number(v ?? 0);
const str = (v: unknown) => (v == null ? "" : String(v));

/** The UTC instants of a Malta day range, inclusive of `to`: [start, end). */
const instants = (q: { from: string; to: string }) => [dayStartUtc(q.from), dayStartUtc(addDays(q.to, 1))] as const;

async function nameMap(src: Source, sql: string): Promise<Map<number, string>> {
  return new Map((await src.values(sql, [])).map((r) => [num(r[0]), str(r[1])]));
}

/** Customers' names (and mobiles), fetched for each page's new ids only. */
function customerCache(src: Source) {
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
async function stateNames(src: Source, asked?: (number | string)[]): Promise<string[] | null> {
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
function agentFilter(scope: Scope, asked?: number[]): number[] | null {
  if (!asked?.length) return scope.agents;
  return scope.agents ? asked.filter((a) => scope.agents!.includes(a)) : asked;
}

type TicketRow = { id: number; at: string; agent: number; customer: number; total: number; paid: number; charges: number };

/** Confirmed tickets of the range in pages, oldest first (keyset on confirmation time, id). */
async function* ticketPages(src: Source, q: { from: string; to: string }, agents: number[] | null): AsyncGenerator<TicketRow[]> {
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

/** A report: rows in batches (raw values by the model's column types, Shop column included only for HQ). */
export type Producer = AsyncGenerator<Cell[][]>;

const withShop = (scope: Scope, shop: string) => (scope.hq ? [shop] : []);

// ---------------------------------------------------------------- sales

async function* salesReport(src: Source, q: ReportQuery, scope: Scope): Producer {
  const shops = await nameMap(src, "SELECT id, name FROM agents");
  const actionNames = await nameMap(src, "SELECT id, name FROM actions");
  const only = q.actions?.length ? new Set(q.actions) : null;
  // day|agent|action → figures; actions 0 = pickup & delivery charges, -1 = an item without actions.
  type Fig = { day: string; agent: number; action: number; name: string; items: number; gross: number; net: number; paid: number };
  const figs = new Map<string, Fig>();
  const add = (day: string, agent: number, action: number, name: string, d: { items: number; gross: number; net: number; paid: number }) => {
    if (only && !only.has(action)) return;
    const key = `${day}|${agent}|${action}`;
    let f = figs.get(key);
    if (!f) figs.set(key, (f = { day, agent, action, name, items: 0, gross: 0, net: 0, paid: 0 }));
    f.items += d.items;
    f.gross += d.gross;
    f.net += d.net;
    f.paid += d.paid;
  };
  for await (const tickets of ticketPages(src, q, scope.agents)) {
    const ids = json(tickets.map((t) => t.id));
    const items = await src.values(
      "SELECT id, ticket_id, pre_discount_total, coalesce(total_override, total), total_paid FROM ticket_sub_categories WHERE ticket_id IN (SELECT value FROM json_each(?))",
      [ids],
    );
    const lines = await src.values(
      `SELECT x.ticket_sub_category_id, x.action_id, x.name, x.price * x.quantity FROM ticket_sub_category_actions x
       WHERE x.ticket_sub_category_id IN (SELECT i.id FROM ticket_sub_categories i WHERE i.ticket_id IN (SELECT value FROM json_each(?)))`,
      [ids],
    );
    const byItem = new Map<number, Map<number, { name: string; weight: number }>>();
    for (const l of lines) {
      const item = num(l[0]);
      const action = num(l[1]);
      let m = byItem.get(item);
      if (!m) byItem.set(item, (m = new Map()));
      const a = m.get(action) ?? { name: actionNames.get(action) ?? str(l[2]), weight: 0 };
      a.weight += num(l[3]);
      m.set(action, a);
    }
    const itemPaid = new Map<number, number>();
    const ticket = new Map(tickets.map((t) => [t.id, t]));
    for (const i of items) {
      const t = ticket.get(num(i[1]))!;
      const day = maltaDay(t.at);
      itemPaid.set(t.id, (itemPaid.get(t.id) ?? 0) + num(i[4]));
      const acts = [...(byItem.get(num(i[0])) ?? new Map([[-1, { name: "(no action)", weight: 0 }]])).entries()];
      const weights = acts.map(([, a]) => a.weight);
      const gross = allocate(num(i[2]), weights);
      const net = allocate(num(i[3]), weights);
      const paid = allocate(num(i[4]), weights);
      acts.forEach(([action, a], k) => add(day, t.agent, action, a.name, { items: 1, gross: gross[k]!, net: net[k]!, paid: paid[k]! }));
    }
    // Charges, and what was paid on the ticket beyond its items (a pay-in-full covers the charges).
    for (const t of tickets) {
      const rest = t.paid - (itemPaid.get(t.id) ?? 0);
      if (t.charges !== 0 || rest !== 0) add(maltaDay(t.at), t.agent, 0, "Pickup & delivery", { items: 0, gross: t.charges, net: t.charges, paid: rest });
    }
  }
  const rows = [...figs.values()].sort(
    (a, b) =>
      a.day.localeCompare(b.day) || (shops.get(a.agent) ?? "").localeCompare(shops.get(b.agent) ?? "") || a.name.localeCompare(b.name) || a.action - b.action,
  );
  for (let i = 0; i < rows.length; i += 5000) {
    yield rows.slice(i, i + 5000).map((f) => {
      const vat = vatSplit(f.net);
      return [
        f.day,
        ...withShop(scope, shops.get(f.agent) ?? ""),
        f.name,
        f.items,
        f.gross,
        f.gross - f.net,
        f.net,
        vat.subtotal,
        vat.vat,
        f.paid,
        f.net - f.paid,
      ];
    });
  }
}

// ---------------------------------------------------------------- clients

async function* clientReport(src: Source, q: ReportQuery, scope: Scope): Producer {
  const shops = await nameMap(src, "SELECT id, name FROM agents");
  const customers = customerCache(src);
  type Fig = { id: number; tickets: number; items: number; spent: number; paid: number; first: string; last: string };
  const figs = new Map<number, Fig>();
  for await (const tickets of ticketPages(src, q, scope.agents)) {
    const counts = new Map(
      (
        await src.values("SELECT ticket_id, count(*) FROM ticket_sub_categories WHERE ticket_id IN (SELECT value FROM json_each(?)) GROUP BY ticket_id", [
          json(tickets.map((t) => t.id)),
        ])
      ).map((r) => [num(r[0]), num(r[1])]),
    );
    for (const t of tickets) {
      const day = maltaDay(t.at);
      let f = figs.get(t.customer);
      if (!f) figs.set(t.customer, (f = { id: t.customer, tickets: 0, items: 0, spent: 0, paid: 0, first: day, last: day }));
      f.tickets++;
      f.items += counts.get(t.id) ?? 0;
      f.spent += t.total;
      f.paid += t.paid;
      if (day < f.first) f.first = day;
      if (day > f.last) f.last = day;
    }
  }
  const all = [...figs.values()];
  for (let i = 0; i < all.length; i += 5000) {
    const part = all.slice(i, i + 5000);
    await customers.load(part.map((f) => f.id));
    yield part.map((f) => {
      const [name, mobile, agent] = customers.get(f.id);
      return [f.id, name, mobile, ...withShop(scope, shops.get(agent) ?? ""), f.tickets, f.items, f.spent, f.paid, f.spent - f.paid, f.first, f.last];
    });
  }
}

// ---------------------------------------------------------------- items

async function* itemReport(src: Source, q: ReportQuery, scope: Scope): Producer {
  const shops = await nameMap(src, "SELECT id, name FROM agents");
  const garments = await nameMap(src, "SELECT id, name FROM garment_sub_categories");
  const states = await stateNames(src, q.states);
  const agents = agentFilter(scope, q.agents);
  const commission = q.commission ?? 0;
  const customers = customerCache(src);
  const [start, end] = instants(q);
  // The items of the range lie between these ids (read from the ticket index only). Items
  // are then read in id order, which is the order they were taken in and the table's own:
  // a sequential read, where paging by ticket jumped about the file (2-3× slower).
  const [bounds] = await src.values(
    "SELECT min(i.id), max(i.id) FROM tickets t JOIN ticket_sub_categories i ON i.ticket_id = t.id WHERE t.confirmed_at >= ? AND t.confirmed_at < ?",
    [start, end],
  );
  if (bounds?.[0] == null) return;
  const hi = num(bounds[1]);
  const where = [
    agents ? "AND t.agent_id IN (SELECT value FROM json_each(?))" : "",
    states ? "AND i.state IN (SELECT value FROM json_each(?))" : "",
    q.actions?.length
      ? "AND EXISTS (SELECT 1 FROM ticket_sub_category_actions x WHERE x.ticket_sub_category_id = i.id AND x.action_id IN (SELECT value FROM json_each(?)))"
      : "",
  ].join(" ");
  const filterArgs = [...(agents ? [json(agents)] : []), ...(states ? [JSON.stringify(states)] : []), ...(q.actions?.length ? [json(q.actions)] : [])];
  let after = num(bounds[0]) - 1;
  while (after < hi) {
    const upto = Math.min(hi, after + ITEMS_PER_PAGE);
    const items = await src.values(
      `SELECT i.id, i.ticket_id, t.confirmed_at, t.agent_id, t.customer_id, i.state, i.garment_sub_category_id, i.description,
        i.quantity, i.has_express, i.pre_discount_total, coalesce(i.total_override, i.total), i.total_paid
       FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id
       WHERE i.id > ? AND i.id <= ? AND t.confirmed_at >= ? AND t.confirmed_at < ? ${where} ORDER BY i.id`,
      [after, upto, start, end, ...filterArgs],
    );
    if (!items.length) {
      after = upto;
      continue;
    }
    // The page's action names in one range read of the actions' item index: half the time of
    // a group_concat subquery per item (1.7 s of 3.3 s over 2M items).
    const names = new Map<number, string>();
    for (const [item, name] of await src.values(
      "SELECT ticket_sub_category_id, name FROM ticket_sub_category_actions WHERE ticket_sub_category_id > ? AND ticket_sub_category_id <= ?",
      [after, upto],
    )) {
      const id = num(item);
      const before = names.get(id);
      names.set(id, before === undefined ? str(name) : `${before}, ${str(name)}`);
    }
    after = upto;
    await customers.load(items.map((i) => num(i[4])));
    yield items.map((i) => {
      const total = num(i[11]);
      return [
        num(i[0]),
        num(i[1]),
        maltaDay(str(i[2])),
        ...withShop(scope, shops.get(num(i[3])) ?? ""),
        customers.get(num(i[4]))[0],
        str(i[5]),
        garments.get(num(i[6])) ?? "",
        str(i[7]),
        names.get(num(i[0])) ?? "",
        num(i[8]),
        num(i[9]) ? "Yes" : "No",
        num(i[10]),
        total,
        num(i[12]),
        commission,
        percentOfCents(total, commission),
      ];
    });
  }
}

// ---------------------------------------------------------------- item state changes

async function* itemStateReport(src: Source, q: ReportQuery, scope: Scope): Producer {
  const shops = await nameMap(src, "SELECT id, name FROM agents");
  const garments = await nameMap(src, "SELECT id, name FROM garment_sub_categories");
  const employees = await nameMap(src, "SELECT id, full_name FROM employees");
  const states = await stateNames(src, q.states);
  const [start, end] = instants(q);
  const where = [
    scope.agents ? "AND t.agent_id IN (SELECT value FROM json_each(?))" : "",
    states ? "AND l.state IN (SELECT value FROM json_each(?))" : "",
    q.actions?.length
      ? "AND EXISTS (SELECT 1 FROM ticket_sub_category_actions x WHERE x.ticket_sub_category_id = i.id AND x.action_id IN (SELECT value FROM json_each(?)))"
      : "",
  ].join(" ");
  const filterArgs = [
    ...(scope.agents ? [json(scope.agents)] : []),
    ...(states ? [JSON.stringify(states)] : []),
    ...(q.actions?.length ? [json(q.actions)] : []),
  ];
  let last: [string, number] = ["", 0];
  for (;;) {
    const rows = await src.values(
      `SELECT l.id, l.logged_at, l.ticket_sub_category_id, i.ticket_id, i.garment_sub_category_id, i.description, l.state, l.employee_id, t.agent_id, l.log
       FROM item_log_states l JOIN ticket_sub_categories i ON i.id = l.ticket_sub_category_id JOIN tickets t ON t.id = i.ticket_id
       WHERE l.logged_at >= ? AND l.logged_at < ? AND (l.logged_at, l.id) > (?, ?) ${where}
       ORDER BY l.logged_at, l.id LIMIT ${LOGS_PER_PAGE}`,
      [start, end, last[0], last[1], ...filterArgs],
    );
    if (!rows.length) return;
    yield rows.map((r) => [
      num(r[2]),
      num(r[3]),
      garments.get(num(r[4])) ?? "",
      str(r[5]),
      str(r[6]),
      str(r[1]),
      r[7] == null ? "" : (employees.get(num(r[7])) ?? ""),
      ...withShop(scope, shops.get(num(r[8])) ?? ""),
      str(r[9]),
    ]);
    const l = rows[rows.length - 1]!;
    last = [str(l[1]), num(l[0])];
    if (rows.length < LOGS_PER_PAGE) return;
  }
}

export const REPORTS: Record<ReportName, (src: Source, q: ReportQuery, scope: Scope) => Producer> = {
  salesReport,
  clientReport,
  itemReport,
  itemStateReport,
  // The payments module owns its tables and their reports.
  paymentsReport,
  tillReport,
};

// ---------------------------------------------------------------- home statistics

/** A period's figures in cents, per agent. */
type PeriodCents = {
  from: string;
  to: string;
  tickets: number;
  items: number;
  express_items: number;
  /** The totals of the tickets confirmed in the period; paid and outstanding are against them. */
  sales: number;
  paid: number;
  outstanding: number;
  /** Money taken in the period by tender, refunds less (the payments module's one definition). */
  takings: number;
  cash: number;
  card: number;
  other: number;
};

export interface HomeCents {
  day: string;
  periods: Record<"today" | "week" | "month", PeriodCents>;
  byAgent: { agent_id: number; name: string; periods: Record<"today" | "week" | "month", PeriodCents> }[];
  tickets_by_state: { state: string; tickets: number }[];
  items_due_today: number;
  items_overdue: number;
  express_open: number;
  top_garments: { name: string; items: number; total: number }[];
  top_actions: { name: string; items: number; total: number }[];
}

const ZERO = { tickets: 0, items: 0, express_items: 0, sales: 0, paid: 0, outstanding: 0, takings: 0, cash: 0, card: 0, other: 0 };

/** The admin home's figures for `day` (a Malta day), over `agents` (null: every shop). */
export async function homeStatistics(src: Source, day: string, agents: number[] | null): Promise<HomeCents> {
  const { year, week } = weekOf(day);
  const monthStart = `${day.slice(0, 7)}-01`;
  const ranges = {
    today: { from: day, to: day },
    week: { from: weekStart(year, week), to: addDays(weekStart(year, week), 6) },
    month: { from: monthStart, to: addDays(`${addDays(`${day.slice(0, 7)}-28`, 4).slice(0, 7)}-01`, -1) },
  };
  const scoped = agents ? "AND t.agent_id IN (SELECT value FROM json_each(?))" : "";
  const scopeArg = agents ? [json(agents)] : [];
  const shops = await src.values(`SELECT id, name FROM agents ${agents ? "WHERE id IN (SELECT value FROM json_each(?))" : ""} ORDER BY name`, scopeArg);
  const empty = (r: { from: string; to: string }): PeriodCents => ({ ...r, ...ZERO });
  const perAgent = new Map(
    shops.map((s) => [
      num(s[0]),
      { agent_id: num(s[0]), name: str(s[1]), periods: { today: empty(ranges.today), week: empty(ranges.week), month: empty(ranges.month) } },
    ]),
  );
  const total = { today: empty(ranges.today), week: empty(ranges.week), month: empty(ranges.month) };
  for (const key of ["today", "week", "month"] as const) {
    const [start, end] = instants(ranges[key]);
    const money = await src.values(
      `SELECT t.agent_id, count(*), coalesce(sum(t.total), 0), coalesce(sum(t.total_paid), 0) FROM tickets t WHERE t.confirmed_at >= ? AND t.confirmed_at < ? ${scoped} GROUP BY t.agent_id`,
      [start, end, ...scopeArg],
    );
    const items = await src.values(
      `SELECT t.agent_id, count(*), coalesce(sum(i.has_express), 0) FROM tickets t JOIN ticket_sub_categories i ON i.ticket_id = t.id WHERE t.confirmed_at >= ? AND t.confirmed_at < ? ${scoped} GROUP BY t.agent_id`,
      [start, end, ...scopeArg],
    );
    for (const r of money) {
      for (const p of [perAgent.get(num(r[0]))?.periods[key], total[key]]) {
        if (!p) continue;
        p.tickets += num(r[1]);
        p.sales += num(r[2]);
        p.paid += num(r[3]);
        p.outstanding = p.sales - p.paid;
      }
    }
    const tq = takingsQuery(start, end, agents);
    const { byAgent } = takingsFrom(await src.values(tq.sql, tq.args));
    for (const [agent, x] of byAgent) {
      for (const p of [perAgent.get(agent)?.periods[key], total[key]]) {
        if (!p) continue;
        p.takings += x.total;
        p.cash += x.cash;
        p.card += x.card;
        p.other += x.other;
      }
    }
    for (const r of items) {
      for (const p of [perAgent.get(num(r[0]))?.periods[key], total[key]]) {
        if (!p) continue;
        p.items += num(r[1]);
        p.express_items += num(r[2]);
      }
    }
  }
  const doneArg = JSON.stringify(DONE_STATES);
  // Open states through the state index (a NOT IN would scan two million items).
  const openStates = "SELECT name FROM ticket_states WHERE name NOT IN (SELECT value FROM json_each(?))";
  // Counted through the (agent, state) index, agent by agent, rather than a scan of every ticket.
  const byState = await src.values(
    `SELECT s.name, (SELECT count(*) FROM tickets t WHERE t.agent_id IN (SELECT value FROM json_each(?)) AND t.state = s.name AND t.confirmed_at IS NOT NULL)
     FROM ticket_states s WHERE s.name <> 'CLOSED' ORDER BY s.position`,
    [json(shops.map((s) => num(s[0])))],
  );
  const due = await src.values(
    `SELECT coalesce(sum(t.delivery_date = ?), 0), coalesce(sum(t.delivery_date < ?), 0) FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id
     WHERE i.state IN (${openStates}) AND t.confirmed_at IS NOT NULL AND t.delivery_date <= ? ${scoped}`,
    [day, day, doneArg, day, ...scopeArg],
  );
  const express = await src.values(
    `SELECT count(*) FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id WHERE i.has_express = 1 AND i.state IN (${openStates}) AND t.confirmed_at IS NOT NULL ${scoped}`,
    [doneArg, ...scopeArg],
  );
  const [mStart, mEnd] = instants(ranges.month);
  const topGarments = await src.values(
    `SELECT g.name, count(*), sum(coalesce(i.total_override, i.total)) FROM tickets t JOIN ticket_sub_categories i ON i.ticket_id = t.id JOIN garment_sub_categories g ON g.id = i.garment_sub_category_id
     WHERE t.confirmed_at >= ? AND t.confirmed_at < ? ${scoped} GROUP BY g.id ORDER BY 2 DESC, 1 LIMIT 10`,
    [mStart, mEnd, ...scopeArg],
  );
  const topActions = await src.values(
    `SELECT a.name, count(DISTINCT x.ticket_sub_category_id), sum(x.price * x.quantity) FROM tickets t JOIN ticket_sub_categories i ON i.ticket_id = t.id
     JOIN ticket_sub_category_actions x ON x.ticket_sub_category_id = i.id JOIN actions a ON a.id = x.action_id
     WHERE t.confirmed_at >= ? AND t.confirmed_at < ? ${scoped} GROUP BY a.id ORDER BY 2 DESC, 1 LIMIT 10`,
    [mStart, mEnd, ...scopeArg],
  );
  const ranked = (rows: unknown[][]) => rows.map((r) => ({ name: str(r[0]), items: num(r[1]), total: num(r[2]) }));
  return {
    day,
    periods: total,
    byAgent: [...perAgent.values()],
    tickets_by_state: byState.map((r) => ({ state: str(r[0]), tickets: num(r[1]) })).filter((s) => s.tickets > 0),
    items_due_today: num(due[0]?.[0]),
    items_overdue: num(due[0]?.[1]),
    express_open: num(express[0]?.[0]),
    top_garments: ranked(topGarments),
    top_actions: ranked(topActions),
  };
}

/**
 * Several sites' home figures added up (head quarters' chain view, issue 15). The pipeline and
 * the counts add; top garments and actions merge each site's top 10 by name (a garment 11th
 * everywhere is missed). `byAgent` is left empty: agents are each site's own.
 */
export function sumHome(day: string, parts: readonly HomeCents[]): HomeCents {
  const period = (key: "today" | "week" | "month"): PeriodCents => {
    const p = { ...(parts[0]?.periods[key] ?? { from: day, to: day }), ...ZERO };
    for (const x of parts) for (const f of Object.keys(ZERO) as (keyof typeof ZERO)[]) p[f] += x.periods[key][f];
    return p;
  };
  const byState = new Map<string, number>();
  for (const x of parts) for (const s of x.tickets_by_state) byState.set(s.state, (byState.get(s.state) ?? 0) + s.tickets);
  const top = (pick: (x: HomeCents) => HomeCents["top_garments"]) => {
    const m = new Map<string, { name: string; items: number; total: number }>();
    for (const x of parts) {
      for (const r of pick(x)) {
        const t = m.get(r.name) ?? { name: r.name, items: 0, total: 0 };
        t.items += r.items;
        t.total += r.total;
        m.set(r.name, t);
      }
    }
    return [...m.values()].sort((a, b) => b.items - a.items || a.name.localeCompare(b.name)).slice(0, 10);
  };
  const add = (pick: (x: HomeCents) => number) => parts.reduce((n, x) => n + pick(x), 0);
  return {
    day,
    periods: { today: period("today"), week: period("week"), month: period("month") },
    byAgent: [],
    // States keep the first site's order (every site has the same ticket states).
    tickets_by_state: [...byState].map(([state, tickets]) => ({ state, tickets })),
    items_due_today: add((x) => x.items_due_today),
    items_overdue: add((x) => x.items_overdue),
    express_open: add((x) => x.express_open),
    top_garments: top((x) => x.top_garments),
    top_actions: top((x) => x.top_actions),
  };
}
