// A page of tickets new to this box written at once (issue 26, speed): the first run brings
// hundreds of thousands, and writing each through the query builder, statement by statement,
// cost 12–14 ms of CPU a ticket (statement preparation and building were most of it). Here a
// page is checked first, ticket by ticket, then written in one transaction of multi-row
// INSERTs on the raw libSQL transaction (a handful of statements a table), the payment rows
// through the payments module's bulk function. Anything this path does not take (a ticket or
// item already here, a drawn signature, money that does not add up) goes back to the caller,
// which writes it record by record as before and refuses what is wrong with its reason; if
// the page's transaction fails, nothing of it stays and the whole page goes back the same way.
import type { Client, Transaction } from "@libsql/client";
import { getTableColumns } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../../../db/client";
import {
  customerPreferences,
  customers,
  importRecords,
  itemLogStates,
  ticketLogStates,
  ticketSubCategories,
  ticketSubCategoryActions,
  ticketSubCategoryModifiers,
  tickets,
} from "../../../db/schema";
import { ticketTotal } from "../../domain/pricing";
import type { EmployeeCaller } from "../auth/caller";
import { type NewPayment, recordPayments } from "../money/service";
import { NOTHING_HERE, sourcePayments } from "./payments";
import type { Customer, Ticket } from "./records";

type Value = string | number | null;
/** Variables per statement: SQLite allows 32,766; statements stay well under that. */
const MAX_VARS = 16_000;

/** The (key, column name, to-driver) of each column of a table, in its order. */
function columnsOf(table: SQLiteTable) {
  return Object.entries(getTableColumns(table)).map(([key, c]) => ({ key, name: c.name, toDb: (v: unknown) => c.mapToDriverValue(v) as Value }));
}
const COLS = new Map<SQLiteTable, ReturnType<typeof columnsOf>>();
const cols = (t: SQLiteTable) => COLS.get(t) ?? (COLS.set(t, columnsOf(t)), COLS.get(t)!);

/** Rows per INSERT … SELECT: bounds the JSON text one statement binds. */
const ROWS_PER_INSERT = 5000;

/**
 * Inserts plain rows (keys as the table's, like drizzle's insert) with one small statement per
 * table and chunk: the rows go as one JSON array bound to `json_each`, so SQLite prepares a
 * statement of a few columns, not one of thousands of placeholders (whose compilation grows
 * with every value), and no value is converted one by one on the way. Rows that leave out
 * different columns (a default) are written apart; rows keep their order (triggers run per row).
 */
export async function insertRows(
  tx: Pick<Transaction, "execute">,
  table: SQLiteTable,
  rows: Record<string, unknown>[],
  tail: string | ((present: { key: string; name: string }[]) => string) = "",
) {
  const all = cols(table);
  const groups = new Map<string, { present: typeof all; rows: Record<string, unknown>[] }>();
  for (const r of rows) {
    const present = all.filter((c) => r[c.key] !== undefined);
    const sig = present.map((c) => c.key).join(",");
    const g = groups.get(sig) ?? (groups.set(sig, { present, rows: [] }), groups.get(sig)!);
    g.rows.push(r);
  }
  const name = (table as unknown as Record<symbol, string>)[Symbol.for("drizzle:Name")];
  for (const { present, rows: part } of groups.values()) {
    const pick = present.map((_, k) => `value->>'$[${k}]'`).join(",");
    // WHERE true: SQLite's parser needs it between INSERT … SELECT and an ON CONFLICT clause.
    const text = `INSERT INTO "${name}" (${present.map((c) => `"${c.name}"`).join(",")}) SELECT ${pick} FROM json_each(?) WHERE true${typeof tail === "string" ? tail : tail(present)}`;
    for (let i = 0; i < part.length; i += ROWS_PER_INSERT) {
      const chunk = part.slice(i, i + ROWS_PER_INSERT).map((r) => present.map((c) => (r[c.key] === null ? null : c.toDb(r[c.key]))));
      await tx.execute({ sql: text, args: [JSON.stringify(chunk)] });
    }
  }
}

/** The ids of `ids` a table already holds (chunked). */
async function present(tx: Pick<Transaction, "execute">, table: string, ids: number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (let i = 0; i < ids.length; i += MAX_VARS) {
    const part = ids.slice(i, i + MAX_VARS);
    const res = await tx.execute({ sql: `SELECT id FROM ${table} WHERE id IN (${part.map(() => "?").join(",")})`, args: part });
    for (const r of res.rows) out.add(Number((r as unknown as { id: number }).id));
  }
  return out;
}

/** Why this path leaves a ticket to the record-by-record one (which then says what is wrong, if anything). */
function leaveAlone(t: Ticket): boolean {
  const owed = t.ticket_sub_categories.map((i) => i.total_override ?? i.total);
  if (ticketTotal(owed, t.pickup_charge, t.delivery_charge) !== t.total) return true;
  let itemsPaid = 0;
  for (const i of t.ticket_sub_categories) {
    if (i.total_paid > (i.total_override ?? i.total)) return true;
    itemsPaid += i.total_paid;
  }
  if (t.total_paid > t.total || itemsPaid > t.total_paid) return true;
  return t.ticket_log_states.some((l) => l.signature);
}

/**
 * An address takes its owner from the first record that uses it (writer.ts's claimAddress),
 * here for a page at once: the first claim of each address wins, and only an unowned one.
 */
async function claimAddresses(tx: Pick<Transaction, "execute">, claims: [number, number][]) {
  const first = new Map<number, number>();
  for (const [address, agent] of claims) if (address > 0 && !first.has(address)) first.set(address, agent);
  const pairs = [...first];
  const per = Math.floor(MAX_VARS / 3);
  for (let i = 0; i < pairs.length; i += per) {
    const part = pairs.slice(i, i + per);
    await tx.execute({
      sql: `UPDATE addresses SET agent_id = CASE id ${part.map(() => "WHEN ? THEN ?").join(" ")} END WHERE agent_id IS NULL AND id IN (${part.map(() => "?").join(",")})`,
      args: [...part.flat(), ...part.map(([a]) => a)],
    });
  }
}

export interface BulkTicket {
  id: number;
  record: Ticket;
  hash: string;
}

/**
 * Writes the tickets of `batch` that are new to this box (with their items, actions,
 * modifiers, state logs, payment rows and fingerprints) in one transaction; returns those it
 * left for the record-by-record path. What was paid becomes the rows `sourcePayments` gives
 * (payments.ts: one per item paid and one for the rest, dated from the source, imported), the
 * rows the record path writes through the ledger; the rows' trigger raises the totals, which
 * must then equal the source's or the page rolls back.
 */
export async function writeTicketsBulk(db: Db, o: { runId: number; caller: EmployeeCaller; now: Date }, batch: BulkTicket[]): Promise<BulkTicket[]> {
  const candidates = batch.filter((x) => !leaveAlone(x.record));
  if (!candidates.length) return batch;
  // The raw client (drizzle keeps it as $client): its transaction takes the box's write lock too.
  const tx = await (db as Db & { $client: Client }).$client.transaction("write");
  try {
    const ticketsHere = await present(
      tx,
      "tickets",
      candidates.map((x) => x.id),
    );
    const itemsHere = await present(
      tx,
      "ticket_sub_categories",
      candidates.flatMap((x) => x.record.ticket_sub_categories.map((i) => i.id)),
    );
    const take = candidates.filter((x) => !ticketsHere.has(x.id) && !x.record.ticket_sub_categories.some((i) => itemsHere.has(i.id)));
    if (!take.length) {
      await tx.rollback();
      return batch;
    }
    const ticketRows = [];
    const itemRows = [];
    const acts = [];
    const mods = [];
    const itemLogs = [];
    const ticketLogs = [];
    const pays: NewPayment[] = [];
    const claims: [number, number][] = [];
    for (const { record: t } of take) {
      const { ticket_sub_categories: items, ticket_log_states: logs, total_paid: _paid, ...row } = t;
      ticketRows.push({ ...row, total_paid: 0 });
      for (const i of items) {
        const { actions: a, modifiers: m, log_states: l, total_paid: _paid, ...irow } = i;
        itemRows.push({ ...irow, ticket_id: t.id, total_paid: 0 });
        for (const x of a)
          acts.push({ id: x.id, ticket_sub_category_id: i.id, action_id: x.actionID, name: x.name, quantity: x.quantity, price: x.price, images: "[]" });
        for (const x of m) mods.push({ ...x, ticket_sub_category_id: i.id });
        for (const x of l) itemLogs.push({ ...x, ticket_sub_category_id: i.id });
      }
      for (const { signature: _s, ...l } of logs) ticketLogs.push({ ...l, ticket_id: t.id, signature_id: null });
      // The same rows, dates and mark the record path writes through the ledger (payments.ts).
      for (const p of sourcePayments(t, NOTHING_HERE, o.now))
        pays.push({
          ticket_id: t.id,
          item_id: p.item,
          agent_id: t.agent_id,
          employee_id: o.caller.employee.id,
          amount: p.amount,
          tender: "other",
          at: p.at,
          imported: p.as,
        });
      claims.push([t.pickup_address_id ?? 0, t.agent_id], [t.delivery_address_id ?? 0, t.agent_id]);
    }
    await insertRows(tx, tickets, ticketRows);
    await insertRows(tx, ticketSubCategories, itemRows);
    await insertRows(tx, ticketSubCategoryActions, acts);
    await insertRows(tx, ticketSubCategoryModifiers, mods);
    await insertRows(tx, itemLogStates, itemLogs);
    await insertRows(tx, ticketLogStates, ticketLogs);
    await recordPayments(tx, pays);
    await claimAddresses(tx, claims);
    await insertRows(
      tx,
      importRecords,
      take.map((x) => ({ kind: "ticket", source_id: x.id, hash: x.hash, run_id: o.runId })),
      " ON CONFLICT(kind, source_id) DO UPDATE SET hash = excluded.hash, run_id = excluded.run_id",
    );
    // The money check, per ticket, after the rows' triggers: as the source has it, or nothing.
    const ids = take.map((x) => x.id);
    const res = await tx.execute({ sql: `SELECT id, total, total_paid FROM tickets WHERE id IN (${ids.map(() => "?").join(",")})`, args: ids });
    const here = new Map((res.rows as unknown as { id: number; total: number; total_paid: number }[]).map((r) => [Number(r.id), r]));
    for (const { record: t } of take) {
      const h = here.get(t.id);
      if (!h || Number(h.total) !== t.total || Number(h.total_paid) !== t.total_paid) throw new Error(`money check failed for ticket ${t.id}`);
    }
    await tx.commit();
    const taken = new Set(ids);
    return batch.filter((x) => !taken.has(x.id));
  } catch (e) {
    if (process.env.IRONBOX_IMPORT_DEBUG) console.error("bulk page fell back:", e);
    // Nothing of the page stays; each ticket is then written (or refused, with its reason) alone.
    await tx.rollback().catch(() => {});
    return batch;
  } finally {
    tx.close();
  }
}

/**
 * A page of customers (new or changed) with their preferences, address claims and
 * fingerprints in one transaction, as writer.ts's customer writer does each; returns the page
 * for the record-by-record path when the transaction fails (nothing of it then stays).
 */
export async function writeCustomersBulk(db: Db, o: { runId: number }, batch: { id: number; record: Customer; hash: string }[]) {
  if (!batch.length) return batch;
  const tx = await (db as Db & { $client: Client }).$client.transaction("write");
  try {
    const rows = batch.map(({ record: { preferences: _p, ...row } }) => row);
    // An upsert that sets the columns the record carries, as writer.ts's upsert does.
    await insertRows(
      tx,
      customers,
      rows,
      (present) =>
        ` ON CONFLICT(id) DO UPDATE SET ${present
          .filter((c) => c.key !== "id")
          .map((c) => `"${c.name}" = excluded."${c.name}"`)
          .join(", ")}`,
    );
    const ids = batch.map((x) => x.id);
    await tx.execute({ sql: `DELETE FROM customer_preferences WHERE customer_id IN (${ids.map(() => "?").join(",")})`, args: ids });
    await insertRows(
      tx,
      customerPreferences,
      batch.flatMap((x) => [...new Set(x.record.preferences)].map((p) => ({ customer_id: x.id, preference_id: p }))),
    );
    await claimAddresses(
      tx,
      batch.map((x): [number, number] => [x.record.address_id ?? 0, x.record.agent_id]),
    );
    await insertRows(
      tx,
      importRecords,
      batch.map((x) => ({ kind: "customer", source_id: x.id, hash: x.hash, run_id: o.runId })),
      " ON CONFLICT(kind, source_id) DO UPDATE SET hash = excluded.hash, run_id = excluded.run_id",
    );
    await tx.commit();
    return [];
  } catch (e) {
    if (process.env.IRONBOX_IMPORT_DEBUG) console.error("bulk customers fell back:", e);
    await tx.rollback().catch(() => {});
    return batch;
  } finally {
    tx.close();
  }
}
