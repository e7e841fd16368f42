/**
 * Deposits (issue 34): a customer's balance is the sum of their rows in the deposit ledger
 * (db/schema/deposits.ts), per shop. A deposit is money into the drawer (cash/card/other) and
 * into the balance; a refund of one is money out of both; spending the balance on a ticket is a
 * payment row of tender `balance` whose spend row the database writes in the same statement
 * (migration 0018), so a ticket's total_paid stays the sum of its rows and the balance the sum
 * of its own. The database refuses a balance below zero; the checks here only say why first.
 *
 * The money belongs to the shop that took it (the drawer it went into): it is spendable there,
 * always, and at another shop only once a transfer HQ signed has moved it there
 * (docs/decisions/deposit-transfers.md).
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { deposits } from "../../../db/schema";
import { toCents, toEuros } from "../../domain/money";
import type { Clock } from "../../platform/clock";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import type { ApprovalService } from "../approval/service";
import { audit } from "../audit/audit";
import { assertSameAgent, type EmployeeCaller } from "../auth/caller";
import { customerReads } from "../customers/reads";
import { employeeShop } from "../employees/reads";
import { ticketCustomer } from "../tickets/reads";
import type { Deposit, DepositBalance } from "./depositModel";
import type { Tender } from "./model";
import { type Exec, type NewPayment, tillDayFor } from "./repo";

type DepositRow = typeof deposits.$inferSelect;

const out = (r: DepositRow): Deposit => ({
  id: r.id,
  customer_id: r.customer_id,
  agent_id: r.agent_id,
  employee_id: r.employee_id,
  kind: r.kind as Deposit["kind"],
  amount: toEuros(r.amount),
  tender: r.tender,
  payment_id: r.payment_id,
  refund_of: r.refund_of,
  reason: r.reason,
  taken_at: r.taken_at,
  till_day: r.till_day,
});

/** A customer's balance per shop (cents). */
async function balances(q: Pick<Exec, "select">, customerId: number): Promise<Map<number, number>> {
  const rows = await q
    .select({ agent: deposits.agent_id, cents: sql<number>`coalesce(sum(${deposits.amount}), 0)` })
    .from(deposits)
    .where(eq(deposits.customer_id, customerId))
    .groupBy(deposits.agent_id);
  return new Map(rows.map((r) => [r.agent, Number(r.cents)]));
}

const euro = (cents: number) => `€${toEuros(cents).toFixed(2)}`;

/**
 * Before a payment of tender `balance` (payments/service recordPayment): its ticket's customer
 * must hold that much at the shop whose drawer the payment counts in (the taker's shop, else
 * the ticket's: the rule of takings.ts, which the spend trigger follows). Refunds put money back
 * and need no check.
 */
export async function assertSpendable(q: Exec, p: NewPayment): Promise<void> {
  if (p.amount <= 0) return;
  const customer = await ticketCustomer(q, p.ticket_id);
  if (customer === undefined) throw notFound("Ticket");
  const shop = (p.employee_id == null ? null : await employeeShop(q, p.employee_id)) ?? p.agent_id;
  const held = await balances(q, customer);
  const here = held.get(shop) ?? 0;
  if (p.amount <= here) return;
  const elsewhere = [...held.entries()].filter(([a]) => a !== shop).reduce((s, [, c]) => s + c, 0);
  if (here + elsewhere >= p.amount)
    throw conflict(
      `Not enough balance at this shop (${euro(here)}): the rest was deposited at another shop and is spendable there, or here once head quarters transfers it`,
    );
  throw unprocessable(`Not enough balance (${euro(here)})`);
}

/** A drawer day's deposits (euros): taken, given back (both in the drawer's expected money), and spent on tickets (not). */
export async function depositsOfDay(q: Pick<Exec, "select">, agentId: number, day: string) {
  const rows = await q
    .select({ kind: deposits.kind, cents: sql<number>`coalesce(sum(${deposits.amount}), 0)` })
    .from(deposits)
    .where(and(eq(deposits.agent_id, agentId), eq(deposits.till_day, day)))
    .groupBy(deposits.kind);
  const of = (kind: string) => Number(rows.find((r) => r.kind === kind)?.cents ?? 0);
  return { taken: toEuros(of("deposit")), given_back: toEuros(-of("refund")), spent: toEuros(-of("spend")) };
}

export function createDepositService({ db, clock, approvals }: { db: Db; clock: Clock; approvals: ApprovalService }) {
  const customers = customerReads(db);

  /** The customer, if the caller's shop may see them (another shop's answers 404; HQ sees all). */
  async function customerOf(caller: EmployeeCaller, id: number) {
    const c = await customers.contact(id);
    if (!c) throw notFound("Customer");
    assertSameAgent(caller, c.agent_id, "Customer");
    return c;
  }

  async function balance(caller: EmployeeCaller, customerId: number): Promise<DepositBalance> {
    await customerOf(caller, customerId);
    const held = await balances(db, customerId);
    const rows = await db.select().from(deposits).where(eq(deposits.customer_id, customerId)).orderBy(desc(deposits.id)).limit(100);
    return {
      customer_id: customerId,
      balance: toEuros([...held.values()].reduce((s, c) => s + c, 0)),
      spendable: toEuros(held.get(caller.agent.id) ?? 0),
      by_shop: [...held.entries()].sort(([a], [b]) => a - b).map(([agent_id, c]) => ({ agent_id, balance: toEuros(c) })),
      rows: rows.map(out),
    };
  }

  return {
    balance,

    /** Money left ahead at the caller's shop (its drawer, by `method`). Audited. */
    async deposit(caller: EmployeeCaller, customerId: number, input: { amount: number; method: Tender }) {
      await customerOf(caller, customerId);
      const cents = toCents(input.amount);
      const shop = caller.agent.id;
      const row = await db.transaction(async (tx) => {
        const at = clock.now();
        const [r] = await tx
          .insert(deposits)
          .values({
            customer_id: customerId,
            agent_id: shop,
            employee_id: caller.employee.id,
            kind: "deposit",
            amount: cents,
            tender: input.method,
            taken_at: at.toISOString(),
            till_day: await tillDayFor(tx, shop, at),
          })
          .returning();
        await audit(tx, at, caller, "deposit", "customer", customerId, { amount_cents: cents, tender: input.method, deposit_id: r!.id });
        return r!;
      });
      return { ...out(row), balance: toEuros((await balances(db, customerId)).get(shop) ?? 0) };
    },

    /**
     * A deposit given back, like a payment's refund: never more than the deposit still holds
     * nor the balance left at its shop, with a reason, by the tender it came in by; employees
     * and drivers need a manager's PIN. Audited.
     */
    async refund(caller: EmployeeCaller, id: number, input: { amount: number; reason: string }, approval: { pin?: string; client: string }) {
      const cents = toCents(input.amount);
      // Another shop's deposit answers 404 before anyone is asked for a PIN.
      const [seen] = await db.select({ agent: deposits.agent_id }).from(deposits).where(eq(deposits.id, id));
      if (!seen) throw notFound("Deposit");
      assertSameAgent(caller, seen.agent, "Deposit");
      const approver = await approvals.approve(caller, approval, `a refund of a deposit of ${euro(cents)}`);
      const row = await db.transaction(async (tx) => {
        const [d] = await tx.select().from(deposits).where(eq(deposits.id, id));
        if (!d) throw notFound("Deposit");
        assertSameAgent(caller, d.agent_id, "Deposit");
        // The money leaves the drawer it went into: HQ's staff cannot hand back a shop's cash.
        if (d.agent_id !== caller.agent.id) throw conflict("Deposit: it is refunded at the shop that took it");
        if (d.kind !== "deposit") throw unprocessable("Deposit: only a deposit can be refunded (a spend is refunded from its payment)");
        const [back] = await tx
          .select({ s: sql<number>`coalesce(sum(${deposits.amount}), 0)` })
          .from(deposits)
          .where(and(eq(deposits.refund_of, d.id), eq(deposits.kind, "refund")));
        const held = d.amount + Number(back?.s ?? 0);
        if (cents > held) throw unprocessable(`amount: more than this deposit still holds (${euro(held)})`);
        const left = (await balances(tx, d.customer_id)).get(d.agent_id) ?? 0;
        if (cents > left) throw unprocessable(`Not enough balance (${euro(left)}): the rest was spent`);
        const at = clock.now();
        const [r] = await tx
          .insert(deposits)
          .values({
            customer_id: d.customer_id,
            agent_id: d.agent_id,
            employee_id: caller.employee.id,
            kind: "refund",
            amount: -cents,
            tender: d.tender,
            refund_of: d.id,
            reason: input.reason,
            approved_by: approver?.id ?? null,
            taken_at: at.toISOString(),
            till_day: await tillDayFor(tx, d.agent_id, at),
          })
          .returning();
        await audit(tx, at, caller, "refund", "deposit", d.id, {
          amount_cents: cents,
          reason: input.reason,
          customer_id: d.customer_id,
          ...(approver ? { approved_by: approver.id } : {}),
        });
        return r!;
      });
      return { ...out(row), balance: toEuros((await balances(db, row.customer_id)).get(row.agent_id) ?? 0) };
    },
  };
}
export type DepositService = ReturnType<typeof createDepositService>;

/** Whether a customer has any row in the deposit ledger (their history: they cannot be removed). */
export async function hasDeposits(q: Pick<Exec, "select">, customerId: number): Promise<boolean> {
  const [r] = await q.select({ id: deposits.id }).from(deposits).where(eq(deposits.customer_id, customerId)).limit(1);
  return r !== undefined;
}
