import { and, asc, eq, gte, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { employees, payments, tillCloses } from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { employeeShop } from "../employees/reads";
import type { PayMethod, Tender } from "./model";
import type { Values } from "./takings";

/** The database or the caller's transaction: a payment is written inside the use case's transaction. */
export type Exec = Pick<Db, "select" | "insert" | "update" | "delete" | "query">;

export type PaymentRow = typeof payments.$inferSelect;

/** What one payment records; `at` and `employee_id` default to now and the caller (an import names both). */
export interface NewPayment {
  ticket_id: number;
  item_id: number | null;
  agent_id: number;
  employee_id: number | null;
  amount: number;
  tender: PayMethod;
  tendered?: number | null;
  change_given?: number | null;
  stop?: string | null;
  refund_of?: number | null;
  reason?: string | null;
  approved_by?: number | null;
  at: Date;
  /** Money the old system took (an import), dated from the source: see ImportedAs. */
  imported?: ImportedAs;
  /**
   * The row's till day when the caller already has it (`paymentTillDay`): the rows of one
   * tender share taker and instant, so one lookup serves them all (issue 33).
   */
  till_day?: string;
}

/**
 * Money the old system took (issue 32, money/takings.ts): "history" was taken on an earlier day
 * and counts in no drawer; "today" was taken by the old till on the import's own day, so it is
 * cash in today's drawer and counts there as this box's own rows do. Stored as `imported`:
 * 0 taken here, 1 history, 2 today.
 */
export type ImportedAs = "history" | "today";
const IMPORTED_CODE = { history: 1, today: 2 } as const;
const importedCode = (as: ImportedAs | undefined) => (as ? IMPORTED_CODE[as] : 0);

/**
 * The till day of a row: history's is its own calendar day in the shop's zone (it counts in no
 * drawer, so a close of that day does not move it); any other row's is its drawer's day.
 */
const isHistory = (p: NewPayment) => p.imported === "history";
const historyDay = (at: Date) => businessDay(at);

/** A day closed for a shop (a standing close, not reopened). */
export async function closedDay(q: Exec, agentId: number, day: string) {
  const [c] = await q
    .select()
    .from(tillCloses)
    .where(and(eq(tillCloses.agent_id, agentId), eq(tillCloses.day, day), isNull(tillCloses.reopened_at)));
  return c ?? null;
}

/** The drawer day a payment taken at `at` counts in: its day in the shop's zone, or the next open one after a close. */
export async function tillDayFor(q: Exec, agentId: number, at: Date): Promise<string> {
  let day = businessDay(at);
  // Bounded: a shop closes at most one day per day; a run of closed future days is unusual.
  for (let i = 0; i < 366 && (await closedDay(q, agentId, day)); i++) day = addDays(day, 1);
  return day;
}

/** The shop whose drawer a row counts in: its employee's shop, else the ticket's (the rule of takings.ts). */
async function drawerOf(q: Exec, p: NewPayment): Promise<number> {
  return (p.employee_id == null ? null : await employeeShop(q, p.employee_id)) ?? p.agent_id;
}

/** The till day a row counts in (see insertPayment). */
export async function paymentTillDay(q: Exec, p: NewPayment): Promise<string> {
  return isHistory(p) ? historyDay(p.at) : tillDayFor(q, await drawerOf(q, p), p.at);
}

/** A raw-SQL runner on the database or the caller's transaction (takings.ts's queries are plain SQL). */
export function valuesOn(q: Pick<Db, "values">): Values {
  return async (text, args) => {
    const parts = text.split("?");
    const chunks: SQL[] = [sql.raw(parts[0]!)];
    args.forEach((a, i) => chunks.push(sql`${a}`, sql.raw(parts[i + 1]!)));
    return (await q.values(sql.join(chunks))) as unknown[][];
  };
}

/**
 * Writes one row. The insert's trigger adds the amount to the item's and the ticket's
 * total_paid in the same statement, so the caller's transaction commits both or neither.
 */
export async function insertPayment(q: Exec, p: NewPayment): Promise<PaymentRow> {
  const [row] = await q
    .insert(payments)
    .values({
      ticket_id: p.ticket_id,
      ticket_sub_category_id: p.item_id,
      agent_id: p.agent_id,
      employee_id: p.employee_id,
      amount: p.amount,
      tender: p.tender,
      tendered: p.tendered ?? null,
      change_given: p.change_given ?? null,
      stop: p.stop ?? null,
      refund_of: p.refund_of ?? null,
      reason: p.reason ?? null,
      approved_by: p.approved_by ?? null,
      taken_at: p.at.toISOString(),
      // The day of the drawer the money goes into: the taker's shop's (takings.ts, DRAWER_SQL).
      till_day: p.till_day ?? (await paymentTillDay(q, p)),
      imported: importedCode(p.imported),
    })
    .returning();
  return row!;
}

/** A raw libSQL executor (a transaction): bulk writes skip the query builder, whose cost per row dominates there. */
export interface RawExec {
  execute(stmt: { sql: string; args: (string | number | null)[] }): Promise<{ rows: unknown[] }>;
}

const PAYMENT_COLUMNS = [
  "ticket_id",
  "ticket_sub_category_id",
  "agent_id",
  "employee_id",
  "amount",
  "tender",
  "tendered",
  "change_given",
  "stop",
  "refund_of",
  "reason",
  "approved_by",
  "taken_at",
  "till_day",
  "imported",
] as const;
/** Rows per INSERT: 15 columns each, well under SQLite's 32,766 variables. */
const PAYMENT_ROWS_PER_INSERT = 1000;

/**
 * Writes many rows at once (an import's page of tickets), in the caller's transaction, with
 * multi-row INSERTs: each row's trigger adds its amount to its item's and ticket's total_paid
 * exactly as insertPayment's does. Till days are found as tillDayFor finds them, with one
 * look-up of the closed days per shop instead of one per row.
 */
export async function insertPaymentsBulk(q: RawExec, rows: NewPayment[]): Promise<void> {
  if (!rows.length) return;
  // An import's rows share an instant or a few: the Malta day of each instant once.
  const days = new Map<number, string>();
  const dayOf = (at: Date) => days.get(at.getTime()) ?? (days.set(at.getTime(), businessDay(at)), days.get(at.getTime())!);
  // Each row's drawer (the taker's shop, else the ticket's), with one look-up of the employees.
  const staff = [...new Set(rows.map((r) => r.employee_id).filter((e): e is number => e != null))];
  const shopOf = new Map<number, number>();
  if (staff.length) {
    const res = await q.execute({ sql: "SELECT id, agent_id FROM employees WHERE id IN (SELECT value FROM json_each(?))", args: [JSON.stringify(staff)] });
    for (const r of res.rows as unknown[][]) shopOf.set(Number(r[0]), Number(r[1]));
  }
  const drawer = (p: NewPayment) => (p.employee_id == null ? undefined : shopOf.get(p.employee_id)) ?? p.agent_id;
  const closed = new Map<number, Set<string>>();
  for (const agent of new Set(rows.map(drawer))) {
    const from = rows
      .filter((r) => drawer(r) === agent)
      .map((r) => dayOf(r.at))
      .sort()[0]!;
    const res = await q.execute({ sql: "SELECT day FROM till_closes WHERE agent_id = ? AND reopened_at IS NULL AND day >= ?", args: [agent, from] });
    closed.set(agent, new Set((res.rows as { day: string }[]).map((r) => String(r.day))));
  }
  const tillDay = (agent: number, at: Date) => {
    let day = dayOf(at);
    const shut = closed.get(agent)!;
    for (let i = 0; i < 366 && shut.has(day); i++) day = addDays(day, 1);
    return day;
  };
  const one = `(${PAYMENT_COLUMNS.map(() => "?").join(", ")})`;
  for (let i = 0; i < rows.length; i += PAYMENT_ROWS_PER_INSERT) {
    const part = rows.slice(i, i + PAYMENT_ROWS_PER_INSERT);
    const args: (string | number | null)[] = [];
    for (const p of part)
      args.push(
        p.ticket_id,
        p.item_id,
        p.agent_id,
        p.employee_id,
        p.amount,
        p.tender,
        p.tendered ?? null,
        p.change_given ?? null,
        p.stop ?? null,
        p.refund_of ?? null,
        p.reason ?? null,
        p.approved_by ?? null,
        p.at.toISOString(),
        isHistory(p) ? historyDay(p.at) : tillDay(drawer(p), p.at),
        importedCode(p.imported),
      );
    await q.execute({ sql: `INSERT INTO payments (${PAYMENT_COLUMNS.join(", ")}) VALUES ${part.map(() => one).join(", ")}`, args });
  }
}

export const CAPS_REASON = "money caps repair: paid past the cap";

/**
 * Paid amounts past the pricing engine's caps (stored before the caps, when a chained
 * percentage could overflow): money leaves only by a row, so each such item gets a row of
 * tender `other` bringing it down to `lineCap`, then each ticket still past `ticketCap` one
 * for the rest; the rows' trigger lowers the totals (a direct write of total_paid is refused,
 * migration 0014). In SQL, since the amounts are past what a JavaScript number holds exactly.
 */
export async function capPaidRows(q: { run(s: ReturnType<typeof sql.raw>): Promise<unknown> }, caps: { line: number; ticket: number }, at: Date) {
  const when = `'${at.toISOString()}', '${businessDay(at)}'`;
  const line = Math.trunc(caps.line);
  const ticket = Math.trunc(caps.ticket);
  await q.run(
    sql.raw(`INSERT INTO payments (ticket_id, ticket_sub_category_id, agent_id, amount, tender, reason, taken_at, till_day)
      SELECT i.ticket_id, i.id, t.agent_id, ${line} - i.total_paid, 'other', '${CAPS_REASON}', ${when}
      FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id WHERE i.total_paid > ${line} ORDER BY i.id`),
  );
  await q.run(
    sql.raw(`INSERT INTO payments (ticket_id, agent_id, amount, tender, reason, taken_at, till_day)
      SELECT id, agent_id, ${ticket} - total_paid, 'other', '${CAPS_REASON}', ${when} FROM tickets WHERE total_paid > ${ticket} ORDER BY id`),
  );
}

/** Whether a ticket (or an item) ever had a payment row: such a ticket keeps its history and cannot be deleted. */
export async function hasPayments(q: Exec, where: { ticket?: number; item?: number; tickets?: number[] }): Promise<boolean> {
  if (where.tickets && !where.tickets.length) return false;
  const cond =
    where.item !== undefined
      ? eq(payments.ticket_sub_category_id, where.item)
      : where.tickets
        ? inArray(payments.ticket_id, where.tickets)
        : eq(payments.ticket_id, where.ticket!);
  const [r] = await q.select({ id: payments.id }).from(payments).where(cond).limit(1);
  return !!r;
}

/** What a payment still holds: its amount less what was refunded from it (cents). */
export async function stillHeld(q: Exec, p: PaymentRow): Promise<number> {
  const [r] = await q
    .select({ s: sql<number>`coalesce(sum(${payments.amount}), 0)` })
    .from(payments)
    .where(eq(payments.refund_of, p.id));
  return p.amount + Number(r?.s ?? 0);
}

/** Rows with the employee's name, oldest first. */
export async function listRows(q: Exec, where: { ticket?: number; from?: string; to?: string; agents: number[] | null; tenders?: Tender[] }) {
  const conds = [
    where.ticket !== undefined ? eq(payments.ticket_id, where.ticket) : undefined,
    where.from ? gte(payments.taken_at, where.from) : undefined,
    where.to ? lt(payments.taken_at, where.to) : undefined,
    where.agents ? inArray(payments.agent_id, where.agents) : undefined,
    where.tenders?.length ? inArray(payments.tender, where.tenders) : undefined,
  ].filter((c) => c !== undefined);
  return q
    .select({ p: payments, employee: employees.full_name })
    .from(payments)
    .leftJoin(employees, eq(employees.id, payments.employee_id))
    .where(conds.length ? and(...conds) : undefined)
    .orderBy(asc(payments.id))
    .limit(10_000);
}
