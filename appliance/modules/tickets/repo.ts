import { asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { inJsonList, prepared } from "../../../db/prepared";
import {
  actions,
  agents,
  customers,
  employees,
  garmentCategories,
  garmentSubCategories,
  images,
  itemLogStates,
  modifiers,
  signatures,
  ticketLogStates,
  ticketSubCategories,
  ticketSubCategoryActions,
  ticketSubCategoryModifiers,
  tickets,
} from "../../../db/schema";
import { actionPrice, effectivePrice, type PricedAction, type PriceRecord } from "../../domain/pricing";
import type { Item, Ticket, TicketCustomer, TicketLog } from "./model";
import { pricesOfGarment } from "./hotReads";
import { balanceDue } from "../../domain/money";

export type Exec = Pick<Db, "select" | "insert" | "update" | "delete" | "query">;
type ItemRow = typeof ticketSubCategories.$inferSelect;

/**
 * The unit price of an action for a garment: its ActionGarmentSubCategory price when the
 * garment has one, otherwise the action's own price (spec §3, both through the engine).
 */
export async function unitPrice(q: Exec, garmentId: number, actionId: number): Promise<number> {
  const records = await pricesOfGarment(q).all({ garment: garmentId });
  const own = records.find((r) => r.action_id === actionId);
  if (own) return effectivePrice(own.id, new Map<number, PriceRecord>(records.map((r) => [r.id, r])));
  const all = await q.select({ id: actions.id, is_percentage_of: actions.is_percentage_of, up_charge: actions.up_charge }).from(actions);
  return actionPrice(actionId, new Map<number, PricedAction>(all.map((a) => [a.id, a])));
}

// The reads of opening a ticket, built once (db/prepared.ts): building them cost more CPU than
// running them. Lists of ids go in as one JSON parameter.
const itemsBy = (key: "id" | "ticket_id") =>
  prepared((q: Exec) => q.select().from(ticketSubCategories).where(inJsonList(ticketSubCategories[key], "ids")).orderBy(asc(ticketSubCategories.id)).prepare());
const itemsById = itemsBy("id");
const itemsByTicket = itemsBy("ticket_id");
const actionsOfItems = prepared((q: Exec) =>
  q
    .select()
    .from(ticketSubCategoryActions)
    .where(inJsonList(ticketSubCategoryActions.ticket_sub_category_id, "ids"))
    .orderBy(asc(ticketSubCategoryActions.id))
    .prepare(),
);
const modifiersOfItems = prepared((q: Exec) =>
  q
    .select({ m: ticketSubCategoryModifiers, name: modifiers.name, image: modifiers.image })
    .from(ticketSubCategoryModifiers)
    .innerJoin(modifiers, eq(modifiers.id, ticketSubCategoryModifiers.modifier_id))
    .where(inJsonList(ticketSubCategoryModifiers.ticket_sub_category_id, "ids"))
    .orderBy(asc(ticketSubCategoryModifiers.id))
    .prepare(),
);
const garmentsOfItems = prepared((q: Exec) =>
  q
    .select({
      id: garmentSubCategories.id,
      name: garmentSubCategories.name,
      pieces: garmentSubCategories.pieces,
      allow_quantity: garmentSubCategories.allow_quantity,
      show_choose_pieces: garmentSubCategories.show_choose_pieces,
      images_required: garmentSubCategories.images_required,
      category: garmentCategories.name,
      category_type: garmentCategories.type,
    })
    .from(garmentSubCategories)
    .innerJoin(garmentCategories, eq(garmentCategories.id, garmentSubCategories.garment_category_id))
    .where(inJsonList(garmentSubCategories.id, "ids"))
    .prepare(),
);
const logsOfItems = prepared((q: Exec) =>
  q.select().from(itemLogStates).where(inJsonList(itemLogStates.ticket_sub_category_id, "ids")).orderBy(asc(itemLogStates.id)).prepare(),
);

/** Items by ids (a JSON list) with their ticket's shop, for the caller's check (a bulk change names 50). */
export const itemsWithShop = prepared((q: Exec) =>
  q
    .select({ id: ticketSubCategories.id, ticket_id: tickets.id, agent_id: tickets.agent_id })
    .from(ticketSubCategories)
    .innerJoin(tickets, eq(tickets.id, ticketSubCategories.ticket_id))
    .where(inJsonList(ticketSubCategories.id, "ids"))
    .prepare(),
);

/** Items of some tickets with their actions, modifiers and garment, in the API's shape with amounts in cents. */
export async function loadItems(q: Exec, where: { ticketIds?: number[]; itemIds?: number[] }): Promise<Item[]> {
  const items: ItemRow[] = where.itemIds
    ? await itemsById(q).all({ ids: JSON.stringify(where.itemIds) })
    : await itemsByTicket(q).all({ ids: JSON.stringify(where.ticketIds ?? []) });
  if (!items.length) return [];
  const ids = JSON.stringify(items.map((i) => i.id));
  // Sequential on purpose: inside a transaction the queries share one connection.
  const [acts, mods, garments, logs] = [
    await actionsOfItems(q).all({ ids }),
    await modifiersOfItems(q).all({ ids }),
    await garmentsOfItems(q).all({ ids: JSON.stringify([...new Set(items.map((i) => i.garment_sub_category_id))]) }),
    await logsOfItems(q).all({ ids }),
  ];
  const g = new Map(garments.map((x) => [x.id, x]));
  // Photos taken for actions that need them, as URLs for the item's image viewer.
  const imageIds = [...new Set(acts.flatMap((a) => JSON.parse(a.images) as number[]))];
  const files = imageIds.length ? await q.select({ id: images.id, file: images.file }).from(images).where(inArray(images.id, imageIds)) : [];
  const url = new Map(files.map((f) => [f.id, `/api/v1/images/${f.file}`]));
  // Children grouped by item once: a list page holds hundreds of items (filtering every child
  // list per item was quadratic).
  const actsOf = groupBy(acts, (a) => a.ticket_sub_category_id);
  const modsOf = groupBy(mods, (m) => m.m.ticket_sub_category_id);
  const logsOf = groupBy(logs, (l) => l.ticket_sub_category_id);
  return items.map((i) => ({
    ...i,
    balance: balanceDue(i.total_override ?? i.total, i.total_paid),
    sub_category: g.get(i.garment_sub_category_id) ?? null,
    actions: (actsOf.get(i.id) ?? []).map((a) => ({
      id: a.id,
      ticket_sub_category_id: a.ticket_sub_category_id,
      actionID: a.action_id,
      quantity: a.quantity,
      price: a.price,
      images: JSON.parse(a.images) as number[],
      name: a.name,
    })),
    modifiers: (modsOf.get(i.id) ?? []).map((m) => ({ ...m.m, name: m.name, image: m.image })),
    log_states: logsOf.get(i.id) ?? [],
    image_urls: (actsOf.get(i.id) ?? []).flatMap((a) => (JSON.parse(a.images) as number[]).map((id) => url.get(id))).filter((u): u is string => !!u),
  }));
}

/** Rows by a key, each group in the rows' order. */
export function groupBy<T, K>(rows: T[], key: (r: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const g = out.get(k);
    if (g) g.push(r);
    else out.set(k, [r]);
  }
  return out;
}

const ticketLogs = prepared((q: Exec) =>
  q
    .select({ l: ticketLogStates, agent: agents.name, employee: employees.full_name, signature: signatures.data_url })
    .from(ticketLogStates)
    .leftJoin(agents, eq(agents.id, ticketLogStates.agent_id))
    .leftJoin(employees, eq(employees.id, ticketLogStates.employee_id))
    .leftJoin(signatures, eq(signatures.id, ticketLogStates.signature_id))
    .where(inJsonList(ticketLogStates.ticket_id, "ids"))
    .orderBy(desc(ticketLogStates.id))
    .prepare(),
);

/** Spec §3 ticket log state history: newest first, with agent and employee names and the signature. */
export async function loadTicketLogs(q: Exec, ticketId: number | number[]): Promise<TicketLog[]> {
  const rows = await ticketLogs(q).all({ ids: JSON.stringify(Array.isArray(ticketId) ? ticketId : [ticketId]) });
  return rows.map((l) => ({ ...l.l, agent: l.agent, employee: l.employee, signature: l.signature }));
}

/**
 * A ticket as stored, with its items and state history, before its addresses are added: which
 * addresses a caller may see is the places module's rule (the service adds them).
 */
export type TicketRecord = Omit<Ticket, "pickup_address" | "delivery_address" | "customer"> & { customer: Omit<TicketCustomer, "address"> };

const ticketRow = prepared((q: Exec) =>
  q
    .select({
      t: tickets,
      agent: agents.name,
      employee: employees.full_name,
      customer: {
        id: customers.id,
        full_name: customers.full_name,
        mobile: customers.mobile,
        landline: customers.landline,
        address_id: customers.address_id,
        discount: customers.discount,
      },
    })
    .from(tickets)
    .innerJoin(agents, eq(agents.id, tickets.agent_id))
    .innerJoin(employees, eq(employees.id, tickets.employee_id))
    .innerJoin(customers, eq(customers.id, tickets.customer_id))
    .where(eq(tickets.id, sql.placeholder("id")))
    .prepare(),
);

/** One ticket in the spec's shape (§3 Ticket), with its items and state history; amounts in cents. */
export async function loadTicket(q: Exec, id: number): Promise<TicketRecord | null> {
  const rows = await ticketRow(q).all({ id });
  const r = rows[0];
  if (!r) return null;
  const items = await loadItems(q, { ticketIds: [id] });
  const logs = await loadTicketLogs(q, id);
  const t = r.t;
  return {
    ...t,
    balance: balanceDue(t.total, t.total_paid),
    agent: r.agent,
    employee: r.employee,
    customer: r.customer,
    ticket_sub_categories: items,
    ticket_log_states: logs,
    actions: [...new Set(items.flatMap((i) => i.actions.map((a) => a.name)))],
  };
}
/** A ticket as the services hold it (amounts in cents). */
export type TicketView = Ticket;
