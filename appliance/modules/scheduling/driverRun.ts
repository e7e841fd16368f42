/** A driver's run: the day's stops in the driver's localities, in driving order. */
import type { Db } from "../../../db/client";
import { parseLocalityIds } from "../../domain/schedule";
import { forbidden, notFound } from "../../platform/errors";
import { isHqAgent } from "../agents/reads";
import { type EmployeeCaller, assertSameAgent } from "../auth/caller";
import { driverRecord } from "../employees/reads";
import { LIST_CAP } from "./booked";
import type { ScheduleLists } from "./lists";
import { balanceDue } from "../../domain/money";
import { pickupAnswers } from "../messaging/reads";

export function createDriverRun({ db, lists }: { db: Db; lists: ScheduleLists }) {
  const { stopTickets, itemsOf, simpleTicket } = lists;

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
      const driver = await driverRecord(db, id);
      if (!driver) throw notFound("Driver");
      assertSameAgent(caller, driver.agent_id, "Driver");
      const locality_ids = parseLocalityIds(driver.localities);
      // A shop's driver carries that shop's tickets; head quarters' vans carry every shop's.
      const agentIds = (await isHqAgent(db, driver.agent_id)) ? null : [driver.agent_id];
      const rows = locality_ids.length ? await stopTickets({ from: date, to: date, kinds: ["pickup", "delivery"], agentIds }, LIST_CAP) : [];
      const items = await itemsOf(rows.map((r) => r.id));
      // A pickup the customer skipped by SMS leaves the run; one they confirmed says so (issue 35).
      const answers = await pickupAnswers(
        db,
        rows.map((r) => r.id),
        date,
      );
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
          amount_due: balanceDue(t.total, t.total_paid),
          items: items.get(t.id) ?? [],
        };
        const legs = [
          { kind: "pickup" as const, on: t.pickup_from_client && t.pickup_date === date, a: s.pickup_address, comments: t.pickup_comment },
          { kind: "delivery" as const, on: t.delivery_to_client && t.delivery_date === date, a: s.delivery_address, comments: t.delivery_comment },
        ];
        for (const l of legs) {
          if (!l.on || !l.a || !locality_ids.includes(l.a.locality_id)) continue;
          if (l.kind === "pickup" && answers.get(t.id) === "skip") continue;
          stops.push({
            kind: l.kind,
            ...contact,
            address: [l.a.number, l.a.name, l.a.street, l.a.locality].filter(Boolean).join(", "),
            locality: l.a.locality,
            street: l.a.street,
            number: l.a.number,
            comments: l.comments,
            confirmed: l.kind === "pickup" && answers.get(t.id) === "yes",
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
