/** The sales and client reports: confirmed tickets of a range in keyset pages, figures per day, shop and action, or per customer. */
import { vatSplit } from "../../domain/pricing";
import { addDays } from "../../domain/dates";
import { paidFrom, paidQuery, takings } from "../money/reads";
import { maltaDay } from "./cells";
import type { ReportQuery } from "./model";
import { allocate, customerCache, json, nameMap, num, type Producer, type Scope, type Source, str, ticketPages, withShop } from "./source";

export async function* salesReport(src: Source, q: ReportQuery, scope: Scope): Producer {
  const shops = await nameMap(src, "SELECT id, name FROM agents");
  const actionNames = await nameMap(src, "SELECT id, name FROM actions");
  const only = q.actions?.length ? new Set(q.actions) : null;
  // day|agent|action → figures; actions 0 = pickup & delivery charges, -1 = an item without actions.
  type Fig = { day: string; agent: number; action: number; name: string; items: number; gross: number; net: number; paid: number; takings: number };
  const figs = new Map<string, Fig>();
  const add = (day: string, agent: number, action: number, name: string, d: Partial<Pick<Fig, "items" | "gross" | "net" | "paid" | "takings">>) => {
    if (only && !only.has(action)) return;
    const key = `${day}|${agent}|${action}`;
    let f = figs.get(key);
    if (!f) figs.set(key, (f = { day, agent, action, name, items: 0, gross: 0, net: 0, paid: 0, takings: 0 }));
    f.items += d.items ?? 0;
    f.gross += d.gross ?? 0;
    f.net += d.net ?? 0;
    f.paid += d.paid ?? 0;
    f.takings += d.takings ?? 0;
  };
  /** Each item's actions with their list prices (the weights its amounts are shared by). */
  const actionsOf = async (itemIds: number[]) => {
    const byItem = new Map<number, Map<number, { name: string; weight: number }>>();
    for (let i = 0; i < itemIds.length; i += 5000) {
      const lines = await src.values(
        "SELECT ticket_sub_category_id, action_id, name, price * quantity FROM ticket_sub_category_actions WHERE ticket_sub_category_id IN (SELECT value FROM json_each(?))",
        [json(itemIds.slice(i, i + 5000))],
      );
      for (const l of lines) {
        const item = num(l[0]);
        const action = num(l[1]);
        let m = byItem.get(item);
        if (!m) byItem.set(item, (m = new Map()));
        const a = m.get(action) ?? { name: actionNames.get(action) ?? str(l[2]), weight: 0 };
        a.weight += num(l[3]);
        m.set(action, a);
      }
    }
    return (item: number) => [...(byItem.get(item) ?? new Map([[-1, { name: "(no action)", weight: 0 }]])).entries()];
  };
  for await (const tickets of ticketPages(src, q, scope.agents)) {
    const ids = json(tickets.map((t) => t.id));
    const items = await src.values(
      "SELECT id, ticket_id, pre_discount_total, coalesce(total_override, total) FROM ticket_sub_categories WHERE ticket_id IN (SELECT value FROM json_each(?))",
      [ids],
    );
    // Paid: the page's payment rows, refunds less (issue 24: one definition of money taken).
    const pq = paidQuery(tickets.map((t) => t.id));
    const paidRows = paidFrom(await src.values(pq.sql, pq.args));
    const acts0 = await actionsOf(items.map((i) => num(i[0])));
    const ticket = new Map(tickets.map((t) => [t.id, t]));
    for (const i of items) {
      const t = ticket.get(num(i[1]))!;
      const day = maltaDay(t.at);
      const acts = acts0(num(i[0]));
      const weights = acts.map(([, a]) => a.weight);
      const gross = allocate(num(i[2]), weights);
      const net = allocate(num(i[3]), weights);
      const paid = allocate(paidRows.items.get(num(i[0])) ?? 0, weights);
      acts.forEach(([action, a], k) => add(day, t.agent, action, a.name, { items: 1, gross: gross[k]!, net: net[k]!, paid: paid[k]! }));
    }
    // Charges, and what was paid on the ticket beyond its items (a pay-in-full covers the charges).
    for (const t of tickets) {
      const rest = paidRows.tickets.get(t.id) ?? 0;
      if (t.charges !== 0 || rest !== 0) add(maltaDay(t.at), t.agent, 0, "Pickup & delivery", { items: 0, gross: t.charges, net: t.charges, paid: rest });
    }
  }
  // Takings: the money of each till day of the range (the payments module's one aggregate, the
  // drawers' figures), on whatever ticket it was paid; shared between an item's actions as its
  // amounts are, rows on no item on "Pickup & delivery". A week of till days per read.
  for (let from = q.from; from <= q.to; from = addDays(from, 7)) {
    const to = addDays(from, 6) < q.to ? addDays(from, 6) : q.to;
    const taken = await takings((sql, args) => src.values(sql, args), { from, to, agents: scope.agents, by: ["day", "ticket", "item"] });
    const acts = await actionsOf([...new Set(taken.flatMap((r) => (r.item == null ? [] : [r.item])))]);
    for (const r of taken) {
      if (r.item == null) {
        add(r.day!, r.agent, 0, "Pickup & delivery", { takings: r.cents });
        continue;
      }
      const a = acts(r.item);
      const parts = allocate(
        r.cents,
        a.map(([, x]) => x.weight),
      );
      a.forEach(([action, x], k) => add(r.day!, r.agent, action, x.name, { takings: parts[k]! }));
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
        f.takings,
      ];
    });
  }
}

export async function* clientReport(src: Source, q: ReportQuery, scope: Scope): Producer {
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
