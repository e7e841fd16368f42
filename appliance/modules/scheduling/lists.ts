/**
 * The lists behind the scheduling screens: a day's booked tickets as spec §3 Simple tickets
 * (with their items and addresses) and a day's processed items. The caller's shop's (HQ all).
 * Tickets reads the rows (tickets/stopReads.ts); customers, agents and places name them.
 */
import type { Db } from "../../../db/client";
import { addDays } from "../../domain/dates";
import { dayStartUtc } from "../../domain/schedule";
import { agentNames } from "../agents/reads";
import { type EmployeeCaller, agentScope } from "../auth/caller";
import { customerHomes } from "../customers/reads";
import { type NamedAddress, namedAddresses } from "../places/reads";
import { type StopQuery, type StopTicket, ticketStopReads } from "../tickets/stopReads";
import { LIST_CAP, dayStops, notNull } from "./booked";

/** A stop ticket with its customer's name and phones, its shop's name and its three addresses (null: none). */
export type TicketRow = StopTicket & {
  customer_full_name: string;
  mobile: string;
  landline: string;
  agent_name: string;
  p: NamedAddress | null;
  d: NamedAddress | null;
  h: NamedAddress | null;
};

const addr = (a: NamedAddress | null) => (a ? { name: a.name, number: a.number, street: a.street, locality: a.locality, locality_id: a.locality_id } : null);

export function createScheduleLists(db: Db) {
  const reads = ticketStopReads(db);

  // ------------------------------------------------------------ simple tickets

  /** The tickets with these stops, by id, at most `limit`, each with its customer, shop and addresses. */
  async function stopTickets(q: StopQuery, limit: number): Promise<TicketRow[]> {
    const rows = await reads.stops(q, limit);
    const [customers, agents] = await Promise.all([
      customerHomes(
        db,
        rows.map((t) => t.customer_id),
      ),
      agentNames(
        db,
        rows.map((t) => t.agent_id),
      ),
    ]);
    const addresses = await namedAddresses(db, [
      ...rows.flatMap((t) => [t.pickup_address_id, t.delivery_address_id]).filter(notNull),
      ...[...customers.values()].map((c) => c.address_id).filter(notNull),
    ]);
    const at = (id: number | null) => (id == null ? null : (addresses.get(id) ?? null));
    // Every ticket has a customer and a shop (foreign keys).
    return rows.flatMap((t) => {
      const c = customers.get(t.customer_id);
      const a = agents.get(t.agent_id);
      if (!c || !a) return [];
      const named = { customer_full_name: c.full_name, mobile: c.mobile, landline: c.landline, agent_name: a.name };
      return [{ ...t, ...named, p: at(t.pickup_address_id), d: at(t.delivery_address_id), h: at(c.address_id) }];
    });
  }

  /** Spec §3 Simple ticket (money in cents; the route turns it into euros). */
  function simpleTicket(t: TicketRow, items: { id: number; description: string; quantity: number }[]) {
    const home = addr(t.h);
    return {
      id: t.id,
      customer_id: t.customer_id,
      customer_full_name: t.customer_full_name,
      customer_contact: [t.mobile, t.landline].filter(Boolean).join(" / "),
      state: t.state,
      pickup_date: t.pickup_date,
      delivery_date: t.delivery_date,
      pickup_from_client: t.pickup_from_client,
      delivery_to_client: t.delivery_to_client,
      pickup_address: addr(t.p) ?? home,
      delivery_address: addr(t.d) ?? home,
      pickup_comment: t.pickup_comment,
      delivery_comment: t.delivery_comment,
      agent_name: t.agent_name,
      detail: items.map((i) => (i.quantity > 1 ? `${i.quantity} × ${i.description}` : i.description)).join(", "),
      sub_category_ids: items.map((i) => i.id),
      total: t.total,
      total_paid: t.total_paid,
    };
  }

  async function dayTickets(caller: EmployeeCaller, day: string, limit: number, type?: "pickups" | "deliveries") {
    const q = dayStops(day, type, caller);
    const n = await reads.countStops(q);
    const rows = limit ? await stopTickets(q, Math.min(limit, LIST_CAP)) : [];
    const items = await reads.itemsOf(rows.map((r) => r.id));
    return { count: n, tickets: rows.map((r) => simpleTicket(r, items.get(r.id) ?? [])) };
  }

  /** The caller's shop's items processed on a day, with their actions (for the workload lists). */
  async function dayItems(caller: EmployeeCaller, day: string, limit: number) {
    return reads.itemsProcessed(dayStartUtc(day), dayStartUtc(addDays(day, 1)), agentScope(caller), limit);
  }

  return { stopTickets, itemsOf: reads.itemsOf, simpleTicket, dayTickets, dayItems };
}

export type ScheduleLists = ReturnType<typeof createScheduleLists>;
