import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { employees, payments, tillCloses } from "../../../db/schema";
import { businessDay } from "../../domain/dates";
import { toCents, toEuros } from "../../domain/money";
import { dayStartUtc } from "../../domain/schedule";
import { addDays } from "../../domain/dates";
import type { Clock } from "../../platform/clock";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import type { ApprovalService } from "../approval/service";
import { recordCharge } from "../accounts/service";
import { audit } from "../audit/audit";
import { agentScope, assertSameAgent, type EmployeeCaller } from "../auth/caller";
import type { ByTender, DRAWER_TENDERS, Payment, PayMethod, Tender, TillDay } from "./model";
import { assertSpendable, depositsOfDay } from "./deposits";
import { closedDay, type Exec, insertPayment, insertPaymentsBulk, listRows, type NewPayment, type PaymentRow, type RawExec, stillHeld, valuesOn } from "./repo";
import { DRAWER_SQL, IN_DRAWER_SQL, sumTakings, takings, totalTakings } from "./takings";

// What other modules use: the tickets ledger records payments inside its own transactions.
export { capPaidRows, hasPayments, type NewPayment, paymentTillDay, type RawExec } from "./repo";
export { hasDeposits } from "./deposits";
/** A payment by the customer's balance is refused (4xx) before its row when the balance here cannot cover it (deposits.ts). */
export async function recordPayment(q: Exec, p: NewPayment) {
  if (p.tender === "balance") await assertSpendable(q, p);
  return insertPayment(q, p);
}
/** Many rows in one go, in the caller's raw transaction (an import's page of tickets). */
export const recordPayments = (q: RawExec, rows: NewPayment[]) => insertPaymentsBulk(q, rows);

const euroTenders = (c: Record<(typeof DRAWER_TENDERS)[number], number>): ByTender => ({
  cash: toEuros(c.cash),
  card: toEuros(c.card),
  other: toEuros(c.other),
});

/** Rows as the API shows them (euros). */
export function paymentsOut(rows: { p: PaymentRow; employee: string | null }[]): Payment[] {
  return rows.map(({ p: { change_given, ...p }, employee }) => ({
    ...p,
    employee,
    tender: p.tender as PayMethod,
    amount: toEuros(p.amount),
    tendered: p.tendered === null ? null : toEuros(p.tendered),
    change: change_given === null ? null : toEuros(change_given),
    imported: p.imported !== 0,
  }));
}

export function createPaymentService({ db, clock, approvals }: { db: Db; clock: Clock; approvals: ApprovalService }) {
  /** The shop a till request is about: the caller's; HQ names one (its own by default). */
  function tillShop(caller: EmployeeCaller, agent: number | undefined): number {
    if (agent === undefined) return caller.agent.id;
    assertSameAgent(caller, agent, "Shop");
    return agent;
  }

  /** A shop's drawer of one till day, from the one aggregate of takings (takings.ts). */
  async function drawer(q: Pick<Db, "values">, agentId: number, day: string) {
    return takings(valuesOn(q), { from: day, to: day, agents: [agentId], by: ["employee"] });
  }

  async function tillDay(caller: EmployeeCaller, day: string, agent?: number): Promise<TillDay> {
    const agentId = tillShop(caller, agent);
    const rows = await drawer(db, agentId, day);
    const all = totalTakings(rows);
    const cash = [
      ...sumTakings(
        rows.filter((r) => r.tender === "cash"),
        (r) => r.employee,
      ),
    ];
    const staff = cash.flatMap(([id]) => (id == null ? [] : [id]));
    const named = new Map(
      staff.length
        ? (await db.select({ id: employees.id, full_name: employees.full_name, role: employees.role }).from(employees).where(inArray(employees.id, staff))).map(
            (e) => [e.id, e],
          )
        : [],
    );
    const byEmployee = cash
      .map(([employee_id, x]) => ({
        employee_id,
        employee: named.get(employee_id!)?.full_name ?? null,
        role: named.get(employee_id!)?.role ?? null,
        cash: x.cash,
      }))
      .sort((a, b) => (a.employee_id ?? 0) - (b.employee_id ?? 0));
    // Rows taken on this calendar day into this drawer that count in a later day (after its close).
    const [moved] = await valuesOn(db)(
      `SELECT count(*) FROM payments p WHERE p.taken_at >= ? AND p.taken_at < ? AND p.till_day <> ? AND ${IN_DRAWER_SQL} AND ${DRAWER_SQL} = ?`,
      [dayStartUtc(day), dayStartUtc(addDays(day, 1)), day, agentId],
    );
    const close = await closedDay(db, agentId, day);
    const reopened = await db
      .select()
      .from(tillCloses)
      .where(and(eq(tillCloses.agent_id, agentId), eq(tillCloses.day, day), isNotNull(tillCloses.reopened_at)));
    return {
      day,
      agent_id: agentId,
      expected: euroTenders(all),
      payments: all.payments,
      refunds: all.refunds,
      by_employee: byEmployee.map((e) => ({ ...e, cash: toEuros(e.cash) })),
      moved_to_next_day: Number(moved?.[0] ?? 0),
      on_account: toEuros(all.account),
      closed: close
        ? {
            closed_at: close.closed_at,
            employee_id: close.employee_id,
            note: close.note,
            counted: euroTenders({ cash: close.counted_cash, card: close.counted_card, other: close.counted_other }),
            variance: euroTenders({
              cash: close.counted_cash - close.expected_cash,
              card: close.counted_card - close.expected_card,
              other: close.counted_other - close.expected_other,
            }),
          }
        : null,
      deposits: await depositsOfDay(db, agentId, day),
      reopened: reopened.map((r) => ({ closed_at: r.closed_at, reopened_at: r.reopened_at!, reopened_by: r.reopened_by })),
    };
  }

  return {
    /** A ticket's rows, or a period's (Malta days, inclusive), scoped to the caller's shop (HQ: all). */
    async list(caller: EmployeeCaller, q: { ticket?: number; from?: string; to?: string }) {
      const scope = agentScope(caller);
      const rows = await listRows(db, {
        ticket: q.ticket,
        from: q.from ? dayStartUtc(q.from) : undefined,
        to: q.to ? dayStartUtc(addDays(q.to, 1)) : undefined,
        agents: scope,
      });
      return paymentsOut(rows);
    },

    /**
     * Money back from one payment: a negative row linked to it, never more than it still
     * holds, with a reason; employees and drivers need a manager's PIN. Audited.
     */
    async refund(caller: EmployeeCaller, id: number, input: { amount: number; reason: string }, approval: { pin?: string; client: string }) {
      const cents = toCents(input.amount);
      const approver = await approvals.approve(caller, approval, `a refund of €${toEuros(cents).toFixed(2)}`);
      const row = await db.transaction(async (tx) => {
        const [p] = await tx.select().from(payments).where(eq(payments.id, id));
        if (!p) throw notFound("Payment");
        assertSameAgent(caller, p.agent_id, "Payment");
        if (p.amount <= 0) throw unprocessable("Payment: a refund cannot be refunded");
        const held = await stillHeld(tx, p);
        if (cents > held) throw unprocessable(`amount: more than this payment still holds (€${toEuros(held).toFixed(2)})`);
        const r = await insertPayment(tx, {
          ticket_id: p.ticket_id,
          item_id: p.ticket_sub_category_id,
          agent_id: p.agent_id,
          employee_id: caller.employee.id,
          amount: -cents,
          tender: p.tender as PayMethod,
          refund_of: p.id,
          reason: input.reason,
          approved_by: approver?.id ?? null,
          at: clock.now(),
        });
        // A charge on account refunded: the account owes that much less (issue 34).
        if (p.tender === "account") await recordCharge(tx, r, null);
        await audit(tx, clock.now(), caller, "refund", "payment", p.id, {
          amount_cents: cents,
          reason: input.reason,
          ticket_id: p.ticket_id,
          ...(approver ? { approved_by: approver.id } : {}),
        });
        return r;
      });
      const [name] = await db.select({ n: employees.full_name }).from(employees).where(eq(employees.id, caller.employee.id));
      return paymentsOut([{ p: row, employee: name?.n ?? null }])[0]!;
    },

    tillDay,

    /** Closes a shop's day with what was counted; a second close answers 409. Audited. */
    async closeTill(caller: EmployeeCaller, day: string, input: { counted: ByTender; note?: string }, agent?: number) {
      const agentId = tillShop(caller, agent);
      if (day > businessDay(clock.now())) throw unprocessable("date: a day that has not come cannot be closed");
      const counted = { cash: toCents(input.counted.cash), card: toCents(input.counted.card), other: toCents(input.counted.other) };
      await db.transaction(async (tx) => {
        if (await closedDay(tx, agentId, day)) throw conflict("This day's drawer is already closed");
        // The same aggregate as the screen's, inside the close's transaction.
        const cents = totalTakings(await drawer(tx, agentId, day));
        await tx.insert(tillCloses).values({
          agent_id: agentId,
          day,
          expected_cash: cents.cash,
          expected_card: cents.card,
          expected_other: cents.other,
          counted_cash: counted.cash,
          counted_card: counted.card,
          counted_other: counted.other,
          note: input.note ?? "",
          employee_id: caller.employee.id,
          closed_at: clock.now().toISOString(),
        });
        await audit(tx, clock.now(), caller, "close_till", "till", agentId, {
          day,
          counted,
          expected: { cash: cents.cash, card: cents.card, other: cents.other },
        });
      });
      return tillDay(caller, day, agent);
    },

    /** An admin reopens a closed day (the close stays on record, audited); payments then count in it again. */
    async reopenTill(caller: EmployeeCaller, day: string, agent?: number) {
      const agentId = tillShop(caller, agent);
      await db.transaction(async (tx) => {
        const c = await closedDay(tx, agentId, day);
        if (!c) throw notFound("Closed day");
        await tx.update(tillCloses).set({ reopened_at: clock.now().toISOString(), reopened_by: caller.employee.id }).where(eq(tillCloses.id, c.id));
        await audit(tx, clock.now(), caller, "reopen_till", "till", agentId, { day });
      });
      return tillDay(caller, day, agent);
    },
  };
}
export type PaymentService = ReturnType<typeof createPaymentService>;
