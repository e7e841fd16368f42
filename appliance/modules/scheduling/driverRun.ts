/** A driver's run: the day's stops in the driver's localities, in driving order. */
import { and, eq, or } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { agents, employees, tickets } from "../../../db/schema";
import { parseLocalityIds } from "../../domain/schedule";
import { forbidden, notFound } from "../../platform/errors";
import { type EmployeeCaller, assertSameAgent } from "../auth/caller";
import { LIST_CAP, isDeliveryOn, isPickupOn } from "./booked";
import type { ScheduleLists } from "./lists";

export function createDriverRun({ db, lists }: { db: Db; lists: ScheduleLists }) {
  const { ticketQuery, itemsOf, simpleTicket } = lists;

  return {
    // -------------------------------------------------------- driver's run
    /**
     * One driver's stops for a day: the confirmed tickets to collect from or deliver to the
     * client in the driver's localities, ordered by locality, street and number. A driver sees
     * only their own run; admins and managers their shop's drivers (HQ any).
     */
    async run(caller: EmployeeCaller, date: string, driverId?: number) {
      const id = driverId ?? caller.employee.id;
      if (caller.employee.role === "driver" && id !== caller.employee.id) throw forbidden("A driver sees only their own run");
      const [driver] = await db
        .select({ id: employees.id, full_name: employees.full_name, agent_id: employees.agent_id, role: employees.role, localities: employees.localities })
        .from(employees)
        .where(eq(employees.id, id));
      if (!driver) throw notFound("Driver");
      assertSameAgent(caller, driver.agent_id, "Driver");
      const locality_ids = parseLocalityIds(driver.localities);
      const [driverAgent] = await db.select({ is_hq: agents.is_hq }).from(agents).where(eq(agents.id, driver.agent_id));
      // A shop's driver carries that shop's tickets; head quarters' vans carry every shop's.
      const shop = driverAgent?.is_hq ? undefined : eq(tickets.agent_id, driver.agent_id);
      const rows = locality_ids.length ? await ticketQuery(and(or(isPickupOn(date, date), isDeliveryOn(date, date)), shop)).limit(LIST_CAP) : [];
      const items = await itemsOf(rows.map((r) => r.id));
      const stops = [];
      for (const t of rows) {
        const s = simpleTicket(t, items.get(t.id) ?? []);
        const contact = {
          ticket_id: t.id,
          state: t.state,
          customer_id: t.customer_id,
          customer_full_name: t.customer_full_name,
          mobile: t.mobile,
          landline: t.landline,
          amount_due: Math.max(0, t.total - t.total_paid),
          items: items.get(t.id) ?? [],
        };
        const legs = [
          { kind: "pickup" as const, on: t.pickup_from_client && t.pickup_date === date, a: s.pickup_address, comments: t.pickup_comment },
          { kind: "delivery" as const, on: t.delivery_to_client && t.delivery_date === date, a: s.delivery_address, comments: t.delivery_comment },
        ];
        for (const l of legs) {
          if (!l.on || !l.a || !locality_ids.includes(l.a.locality_id)) continue;
          stops.push({
            kind: l.kind,
            ...contact,
            address: [l.a.number, l.a.name, l.a.street, l.a.locality].filter(Boolean).join(", "),
            locality: l.a.locality,
            street: l.a.street,
            number: l.a.number,
            comments: l.comments,
          });
        }
      }
      const num = (s: string) => Number.parseInt(s, 10) || 0;
      stops.sort(
        (a, b) => a.locality.localeCompare(b.locality) || a.street.localeCompare(b.street) || num(a.number) - num(b.number) || a.ticket_id - b.ticket_id,
      );
      return { date, driver: { id: driver.id, full_name: driver.full_name, locality_ids }, stops: stops.map(({ number, ...s }) => s) };
    },
  };
}
