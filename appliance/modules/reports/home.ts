/** The admin home's statistics (today, week, month per shop) and HQ's sum of several sites' figures. */
import { addDays } from "../../domain/dates";
import { weekOf, weekStart } from "../../domain/schedule";
import { DONE_STATES } from "../../domain/states";
import { sumTakings, takings } from "../money/reads";
import { instants, json, num, type Source, str } from "./source";

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
  /** Money taken in the period's till days by tender, refunds less (the payments module's one aggregate: the drawers' figures). */
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
    // Takings by till day, as the drawers count them (a payment after a close is the next open day's).
    const byAgent = sumTakings(await takings((sql, args) => src.values(sql, args), { ...ranges[key], agents }), (r) => r.agent);
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
