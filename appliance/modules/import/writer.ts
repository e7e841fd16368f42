// Writes checked records of the old system into this box with their ids. The modules'
// services create records with new ids, so the import writes rows itself, inside one
// transaction per record or batch, through the same tables, triggers (search index,
// customer statistics) and money steps (the payment adapter) the services use. Each record's
// fingerprint is written in the same transaction: a record is either whole and known, or absent.
import { and, eq, inArray, isNull, notInArray, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../../../db/client";
import {
  actionGarmentSubCategories,
  actions,
  addresses,
  agents,
  configurations,
  customerPreferences,
  customers,
  employees,
  garmentCategories,
  garmentSubCategories,
  importRecords,
  itemLogStates,
  localities,
  modifiers,
  pickupDeliveries,
  preferences,
  signatures,
  streets,
  ticketLogStates,
  ticketStates,
  ticketSubCategories,
  ticketSubCategoryActions,
  ticketSubCategoryModifiers,
  tickets,
} from "../../../db/schema";
import { ticketTotal } from "../../domain/pricing";
import type { EmployeeCaller } from "../auth/caller";
import { hashPin } from "../auth/secrets";
import type { Exec } from "../tickets/repo";
import type { PaymentAdapter } from "./payments";
import { ownAgentPrivileges, ownEmployeePrivileges, type Skipped } from "./privileges";
import type * as R from "./records";

export type Kind =
  | "locality"
  | "street"
  | "address"
  | "agent"
  | "preference"
  | "employee"
  | "customer"
  | "action"
  | "category"
  | "garment"
  | "price"
  | "modifier"
  | "ticket_state"
  | "configuration"
  | "pickup_delivery"
  | "ticket";

/** A PIN given to an imported employee: shown once in the report, stored only as its hash. */
export interface NewPin {
  employee_id: number;
  full_name: string;
  agent_id: number;
  pin: string;
}

export interface WriteContext {
  q: Exec;
  runId: number;
  secret: string;
  caller: EmployeeCaller;
  pay: PaymentAdapter;
  pins: NewPin[];
  /** HQ flags and roles the old system gave that the box did not take (privileges.ts). */
  skipped: Skipped[];
}

/** Insert with the record's id, or update that row: the old system's ids are kept. */
async function upsert(q: Exec, table: SQLiteTable & { id: any }, row: Record<string, unknown>) {
  const { id: _, ...set } = row;
  await q
    .insert(table)
    .values(row as any)
    .onConflictDoUpdate({ target: table.id, set: set as any });
}

async function remember(c: WriteContext, kind: Kind, sourceId: number, hash: string) {
  await c.q
    .insert(importRecords)
    .values({ kind, source_id: sourceId, hash, run_id: c.runId })
    .onConflictDoUpdate({ target: [importRecords.kind, importRecords.source_id], set: { hash, run_id: c.runId } });
}

/** An address takes its owner from the first record that uses it (the API does not say whose it is). */
async function claimAddress(q: Exec, addressId: number | null, agentId: number) {
  if (addressId == null) return;
  await q
    .update(addresses)
    .set({ agent_id: agentId })
    .where(and(eq(addresses.id, addressId), isNull(addresses.agent_id)));
}

/** A random PIN of six digits not yet used by the agent's employees. */
async function freshPin(q: Exec, secret: string, agentId: number): Promise<{ pin: string; hash: string }> {
  for (let i = 0; i < 50; i++) {
    const pin = String(100000 + (crypto.getRandomValues(new Uint32Array(1))[0]! % 900000));
    const hash = hashPin(secret, agentId, pin);
    const taken = await q.query.employees.findFirst({ where: and(eq(employees.agent_id, agentId), eq(employees.pin_hash, hash)), columns: { id: true } });
    if (!taken) return { pin, hash };
  }
  throw new Error("no free PIN for this agent");
}

type Writers = { [K in Kind]: (c: WriteContext, r: any) => Promise<void> };

export const writers: Writers = {
  locality: (c, r: R.Locality) => upsert(c.q, localities, r),
  street: (c, r: R.Street) => upsert(c.q, streets, r),
  address: (c, r: R.Address) => upsert(c.q, addresses, r),
  preference: (c, r: R.Preference) => upsert(c.q, preferences, r),
  ticket_state: (c, r: R.TicketState) => upsert(c.q, ticketStates, r),
  configuration: (c, r: R.Configuration) => upsert(c.q, configurations, r),
  pickup_delivery: (c, r: R.PickupDelivery) => upsert(c.q, pickupDeliveries, r),
  action: (c, r: R.Action) => upsert(c.q, actions, r),
  category: (c, r: R.Category) => upsert(c.q, garmentCategories, r),
  garment: (c, r: R.Garment) => upsert(c.q, garmentSubCategories, r),
  price: (c, r: R.Price) => upsert(c.q, actionGarmentSubCategories, r),
  modifier: (c, r: R.Modifier) => upsert(c.q, modifiers, r),

  // The password cannot be read: an agent new to this box has none until an admin sets it
  // (Agents → Set password); one already here keeps its own. Its HQ flag is the box's own.
  async agent(c, source: R.Agent) {
    const { record: r, skipped } = await ownAgentPrivileges(c.q, source);
    c.skipped.push(...skipped);
    await upsert(c.q, agents, r);
    await claimAddress(c.q, r.address_id, r.id);
  },

  // A PIN cannot be read either: an employee new to this box gets a new one, printed once in
  // the report; one already here (the box's first admin, a second run) keeps its PIN. Its
  // HQ flag and any role above what the box gives are the box's own (privileges.ts).
  async employee(c, source: R.Employee) {
    const { record: r, skipped } = await ownEmployeePrivileges(c.q, source);
    c.skipped.push(...skipped);
    const here = await c.q.query.employees.findFirst({ where: eq(employees.id, r.id), columns: { id: true, agent_id: true } });
    if (here && here.agent_id === r.agent_id) {
      const { id: _, ...set } = r;
      await c.q.update(employees).set(set).where(eq(employees.id, r.id));
      return;
    }
    if (here) throw new Error(`employee ${r.id} is another shop's on this box`);
    const { pin, hash } = await freshPin(c.q, c.secret, r.agent_id);
    await c.q.insert(employees).values({ ...r, pin_hash: hash });
    c.pins.push({ employee_id: r.id, full_name: r.full_name, agent_id: r.agent_id, pin });
  },

  async customer(c, r: R.Customer) {
    const { preferences: prefs, ...row } = r;
    await upsert(c.q, customers, row);
    await c.q.delete(customerPreferences).where(eq(customerPreferences.customer_id, r.id));
    if (prefs.length) await c.q.insert(customerPreferences).values([...new Set(prefs)].map((p) => ({ customer_id: r.id, preference_id: p })));
    await claimAddress(c.q, r.address_id, r.agent_id);
  },

  ticket: writeTicket,
};

/**
 * A ticket with its items, their actions, modifiers and state logs, its state history and
 * what was paid, as one unit. Totals are the old system's stored ones (recomputing them from
 * today's catalogue would change what customers were charged years ago); they must add up
 * as this box's own tickets do, and what was paid goes through the payment adapter, item by
 * item. Anything that does not equal the source throws, which rolls the ticket back.
 */
async function writeTicket(c: WriteContext, t: R.Ticket) {
  const { q } = c;
  const owed = t.ticket_sub_categories.map((i) => i.total_override ?? i.total);
  const sum = ticketTotal(owed, t.pickup_charge, t.delivery_charge);
  if (sum !== t.total)
    throw new Error(`money check: total €${(t.total / 100).toFixed(2)} is not the sum of its items and charges (€${(sum / 100).toFixed(2)})`);
  for (const i of t.ticket_sub_categories)
    if (i.total_paid > (i.total_override ?? i.total)) throw new Error(`money check: item ${i.id} paid more than it costs`);

  // A second run: what this box already recorded as paid stays; only the difference is paid.
  const before = await q
    .select({ id: ticketSubCategories.id, paid: ticketSubCategories.total_paid, ticket: ticketSubCategories.ticket_id })
    .from(ticketSubCategories)
    .where(
      inArray(
        ticketSubCategories.id,
        t.ticket_sub_categories.map((i) => i.id),
      ),
    );
  for (const b of before) if (b.ticket !== t.id) throw new Error(`item ${b.id} belongs to ticket ${b.ticket} on this box`);
  const existing = await q.query.tickets.findFirst({ where: eq(tickets.id, t.id), columns: { id: true } });

  // total_paid is never written here: a new ticket or item starts at 0 and what was paid
  // arrives as payment rows below, whose trigger raises it; a second run leaves what the
  // rows already hold (the database refuses any other value, migration 0014).
  const { ticket_sub_categories: items, ticket_log_states: logs, total_paid: _paid, ...row } = t;
  await upsert(q, tickets, row);
  // A ticket new to this box (the first run: nearly all) has nothing to clear, and its
  // children go in one statement per table: fewer statements is most of the import's time.
  const fresh = !existing && before.length === 0;
  if (!fresh) {
    const keep = items.map((i) => i.id);
    await q.delete(ticketSubCategories).where(and(eq(ticketSubCategories.ticket_id, t.id), keep.length ? notInArray(ticketSubCategories.id, keep) : sql`1`));
    await q.delete(ticketLogStates).where(eq(ticketLogStates.ticket_id, t.id));
  }

  const rows = [];
  for (const i of items) {
    const { actions: _a, modifiers: _m, log_states: _l, total_paid: _p, ...irow } = i;
    rows.push({ ...irow, ticket_id: t.id });
  }
  if (fresh) {
    if (rows.length) await q.insert(ticketSubCategories).values(rows);
  } else {
    for (const row of rows) await upsert(q, ticketSubCategories, row);
    for (const i of before) {
      await q.delete(ticketSubCategoryActions).where(eq(ticketSubCategoryActions.ticket_sub_category_id, i.id));
      await q.delete(ticketSubCategoryModifiers).where(eq(ticketSubCategoryModifiers.ticket_sub_category_id, i.id));
      await q.delete(itemLogStates).where(eq(itemLogStates.ticket_sub_category_id, i.id));
    }
  }
  const acts = items.flatMap((i) =>
    i.actions.map((a) => ({ id: a.id, ticket_sub_category_id: i.id, action_id: a.actionID, name: a.name, quantity: a.quantity, price: a.price, images: "[]" })),
  );
  const mods = items.flatMap((i) => i.modifiers.map((m) => ({ ...m, ticket_sub_category_id: i.id })));
  const ils = items.flatMap((i) => i.log_states.map((l) => ({ ...l, ticket_sub_category_id: i.id })));
  if (acts.length) await q.insert(ticketSubCategoryActions).values(acts);
  if (mods.length) await q.insert(ticketSubCategoryModifiers).values(mods);
  if (ils.length) await q.insert(itemLogStates).values(ils);
  const plain = [];
  for (const l of logs) {
    const { signature, ...lrow } = l;
    if (!signature) {
      plain.push({ ...lrow, ticket_id: t.id, signature_id: null });
      continue;
    }
    const [s] = await q.insert(signatures).values({ data_url: signature, created_at: l.logged_at }).returning({ id: signatures.id });
    await q.insert(ticketLogStates).values({ ...lrow, ticket_id: t.id, signature_id: s!.id });
  }
  if (plain.length) await q.insert(ticketLogStates).values(plain);

  // What this box holds of the ticket's money (its rows, as the triggers keep the totals): per
  // item, and on no item the rest. Only the difference to the source is paid, through the ledger.
  const held = await q.query.tickets.findFirst({ where: eq(tickets.id, t.id), columns: { total_paid: true } });
  const onItems = new Map(
    (
      await q
        .select({ id: ticketSubCategories.id, paid: ticketSubCategories.total_paid })
        .from(ticketSubCategories)
        .where(eq(ticketSubCategories.ticket_id, t.id))
    ).map((i) => [i.id, i.paid]),
  );
  const onTicket = held!.total_paid - [...onItems.values()].reduce((s, p) => s + p, 0);
  await c.pay.pay(q, c.caller, t, { items: onItems, onTicket });
  const after = await q.query.tickets.findFirst({ where: eq(tickets.id, t.id), columns: { total: true, total_paid: true } });
  if (after!.total !== t.total) throw new Error(`money check: total here €${(after!.total / 100).toFixed(2)}, at the source €${(t.total / 100).toFixed(2)}`);
  if (after!.total_paid !== t.total_paid)
    throw new Error(`money check: paid here €${(after!.total_paid / 100).toFixed(2)}, at the source €${(t.total_paid / 100).toFixed(2)}`);
  await claimAddress(q, t.pickup_address_id, t.agent_id);
  await claimAddress(q, t.delivery_address_id, t.agent_id);
}

/** Writes one record and its fingerprint, in the transaction `c.q` is. */
export async function writeRecord(c: WriteContext, kind: Kind, record: { id: number }, hash: string) {
  await writers[kind](c, record);
  await remember(c, kind, record.id, hash);
}

/** The fingerprints this box holds for some records of a kind (what the last run wrote). */
export async function knownHashes(db: Db, kind: Kind, ids: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const rows = await db
      .select({ id: importRecords.source_id, hash: importRecords.hash })
      .from(importRecords)
      .where(and(eq(importRecords.kind, kind), inArray(importRecords.source_id, part)));
    for (const r of rows) out.set(r.id, r.hash);
  }
  return out;
}
