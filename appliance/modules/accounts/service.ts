import { asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accountCharges, accountCustomers, accounts, invoices } from "../../../db/schema";
import { toCents, toEuros } from "../../domain/money";
import type { Clock } from "../../platform/clock";
import { conflict, forbidden, notFound, unprocessable } from "../../platform/errors";
import { APPROVAL_REQUIRED, type ApprovalInput, type ApprovalService } from "../approval/service";
import { audit } from "../audit/audit";
import { agentScope, assertSameAgent, type EmployeeCaller } from "../auth/caller";
import { agentNames } from "../agents/reads";
import { customerReads } from "../customers/reads";
import type { Account, AccountInput, ChargedTicket } from "./model";

/** The database or the caller's transaction. */
export type Exec = Pick<Db, "select" | "insert" | "update" | "delete" | "query">;
export type AccountRow = typeof accounts.$inferSelect;

/**
 * An account's balance in cents: its charges less its payments and credit notes, each a row
 * that is never changed. Nothing stores it, so it cannot drift from its rows.
 */
export async function balanceOf(q: Pick<Db, "select">, accountId: number): Promise<number> {
  const [r] = await q
    .select({
      charges: sql<number>`(SELECT coalesce(sum(amount), 0) FROM account_charges WHERE account_id = ${accountId})`,
      paid: sql<number>`(SELECT coalesce(sum(amount), 0) FROM account_payments WHERE account_id = ${accountId})`,
      credited: sql<number>`(SELECT coalesce(sum(amount), 0) FROM credit_notes WHERE account_id = ${accountId})`,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId));
  if (!r) return 0;
  return Number(r.charges) - Number(r.paid) - Number(r.credited);
}

/** An account the caller's shop bills (HQ: any); another shop's answers 404. */
export async function accountRow(q: Pick<Db, "select">, caller: EmployeeCaller, id: number): Promise<AccountRow> {
  const [a] = await q.select().from(accounts).where(eq(accounts.id, id));
  if (!a) throw notFound("Account");
  assertSameAgent(caller, a.agent_id, "Account");
  return a;
}

/** What the pay path carries for a charge on account, decided before its transaction. */
export interface AccountCharge {
  account_id: number;
  /** A manager acted or approved: the credit limit may be passed. */
  approved: boolean;
  approver: number | null;
}

const limitWords = (a: AccountRow, cents: number) =>
  `a charge of €${toEuros(cents).toFixed(2)} takes account ${a.name} past its credit limit of €${toEuros(a.credit_limit).toFixed(2)}`;

/**
 * The account tender (`method=account` on the pay routes): the account the ticket's customer
 * charges to, and over its credit limit a manager's approval (403 "Manager approval required"
 * without one, as the discount limit does). Runs before the payment's transaction since an
 * approval checks a PIN; recordCharge checks the limit again inside it.
 */
export async function accountForCharge(
  db: Db,
  approvals: ApprovalService,
  caller: EmployeeCaller,
  customerId: number,
  cents: number,
  approval: ApprovalInput,
): Promise<AccountCharge> {
  const [link] = await db
    .select({ a: accounts })
    .from(accountCustomers)
    .innerJoin(accounts, eq(accounts.id, accountCustomers.account_id))
    .where(eq(accountCustomers.customer_id, customerId));
  if (!link) throw unprocessable("method: this ticket's customer charges to no account");
  const a = link.a;
  const over = (await balanceOf(db, a.id)) + cents > a.credit_limit;
  if (!over) return { account_id: a.id, approved: false, approver: null };
  const approver = await approvals.approve(caller, approval, limitWords(a, cents));
  return { account_id: a.id, approved: true, approver: approver?.id ?? null };
}

/**
 * The account's row for a payment row of tender `account`, in the payment's transaction (the
 * database refuses a charge that is not its payment row to the cent). A refund of such a
 * payment is a negative charge on the same account.
 */
export async function recordCharge(
  q: Exec,
  p: { id: number; ticket_id: number; ticket_sub_category_id: number | null; amount: number; refund_of: number | null; taken_at: string },
  charge: AccountCharge | null,
): Promise<void> {
  let accountId = charge?.account_id;
  if (p.amount < 0 && p.refund_of !== null) {
    const [orig] = await q.select({ a: accountCharges.account_id }).from(accountCharges).where(eq(accountCharges.payment_id, p.refund_of));
    accountId = orig?.a;
  } else if (charge && !charge.approved) {
    // Two tablets charging at once: the limit holds inside the transaction too.
    const [a] = await q.select().from(accounts).where(eq(accounts.id, charge.account_id));
    if ((await balanceOf(q, a!.id)) + p.amount > a!.credit_limit) throw forbidden(`${APPROVAL_REQUIRED}: ${limitWords(a!, p.amount)}`);
  }
  if (accountId === undefined) throw unprocessable("method: a charge on account needs the customer's account");
  await q.insert(accountCharges).values({
    account_id: accountId,
    payment_id: p.id,
    ticket_id: p.ticket_id,
    ticket_sub_category_id: p.ticket_sub_category_id,
    amount: p.amount,
    at: p.taken_at,
  });
}

export function createAccountService({ db, clock }: { db: Db; clock: Clock }) {
  const customers = customerReads(db);

  /**
   * The account as people read it: its shop's name and its customers' names and mobiles beside
   * the ids, so no screen shows a bare number (HQ lists every shop's accounts). `names` is the
   * list's one read of the shops' names.
   */
  async function out(a: AccountRow, names?: Map<number, { name: string }>): Promise<Account> {
    const members = await db
      .select({ c: accountCustomers.customer_id })
      .from(accountCustomers)
      .where(eq(accountCustomers.account_id, a.id))
      .orderBy(asc(accountCustomers.customer_id));
    const ids = members.map((m) => m.c);
    const people = ids.length ? await customers.contacts(ids, null) : [];
    const shop = (names ?? (await agentNames(db, [a.agent_id]))).get(a.agent_id);
    const { created_at, ...rest } = a;
    return {
      ...rest,
      agent_name: shop?.name ?? `Shop ${a.agent_id}`,
      created_at,
      customer_ids: ids,
      customers: people.map((c) => ({ id: c.id, full_name: c.full_name, mobile: c.mobile })),
      credit_limit: toEuros(a.credit_limit),
      balance: toEuros(await balanceOf(db, a.id)),
    };
  }

  /** The shop an account is billed by: the caller's; HQ may name another. */
  function shopOf(caller: EmployeeCaller, agent: number | undefined): number {
    if (agent === undefined) return caller.agent.id;
    assertSameAgent(caller, agent, "Shop");
    return agent;
  }

  /** Customers of the account's shop only (another shop's id answers 404), each on one account. */
  async function checkCustomers(ids: number[], agentId: number, accountId: number | null) {
    const uniq = [...new Set(ids)];
    if (!uniq.length) return uniq;
    const found = await customers.contacts(uniq, [agentId]);
    if (found.length !== uniq.length) throw notFound("Customer");
    const taken = await db
      .select({ c: accountCustomers.customer_id, a: accountCustomers.account_id })
      .from(accountCustomers)
      .where(inArray(accountCustomers.customer_id, uniq));
    const other = taken.find((t) => t.a !== accountId);
    if (other) throw conflict(`Customer ${other.c} already charges to another account`);
    return uniq;
  }

  const values = (input: AccountInput) => ({
    name: input.name,
    billing_contact: input.billing_contact,
    email: input.email,
    vat_number: input.vat_number,
    terms_days: input.terms_days,
    credit_limit: toCents(input.credit_limit),
    discount: input.discount,
  });

  return {
    async list(caller: EmployeeCaller, agent?: number): Promise<Account[]> {
      const scope = agent !== undefined ? [shopOf(caller, agent)] : agentScope(caller);
      const rows = await db
        .select()
        .from(accounts)
        .where(scope ? inArray(accounts.agent_id, scope) : undefined)
        .orderBy(asc(accounts.name), asc(accounts.id));
      const names = await agentNames(
        db,
        rows.map((r) => r.agent_id),
      );
      return Promise.all(rows.map((r) => out(r, names)));
    },

    async get(caller: EmployeeCaller, id: number): Promise<Account> {
      return out(await accountRow(db, caller, id));
    },

    /** The tickets charged to the account, newest first, with the invoice that billed each. */
    async charges(caller: EmployeeCaller, id: number): Promise<ChargedTicket[]> {
      await accountRow(db, caller, id);
      const rows = await db
        .select({
          ticket_id: accountCharges.ticket_id,
          amount: sql<number>`sum(${accountCharges.amount})`,
          at: sql<string>`min(${accountCharges.at})`,
          invoice_id: sql<
            number | null
          >`(SELECT max(ic.invoice_id) FROM invoice_charges ic JOIN account_charges c2 ON c2.id = ic.charge_id WHERE c2.account_id = ${id} AND c2.ticket_id = ${accountCharges.ticket_id})`,
        })
        .from(accountCharges)
        .where(eq(accountCharges.account_id, id))
        .groupBy(accountCharges.ticket_id)
        .orderBy(sql`min(${accountCharges.at}) DESC`)
        .limit(500);
      const ids = [...new Set(rows.map((r) => r.invoice_id).filter((x): x is number => x !== null))];
      const numbers = new Map(
        ids.length
          ? (await db.select({ id: invoices.id, number: invoices.number }).from(invoices).where(inArray(invoices.id, ids))).map((r) => [r.id, r.number])
          : [],
      );
      return rows.map((r) => ({
        ticket_id: r.ticket_id,
        amount: toEuros(Number(r.amount)),
        at: r.at,
        invoice_id: r.invoice_id,
        invoice_number: r.invoice_id === null ? null : (numbers.get(r.invoice_id) ?? null),
      }));
    },

    async create(caller: EmployeeCaller, input: AccountInput): Promise<Account> {
      const agentId = shopOf(caller, input.agent_id);
      const members = await checkCustomers(input.customer_ids, agentId, null);
      const row = await db.transaction(async (tx) => {
        const [a] = await tx
          .insert(accounts)
          .values({ ...values(input), agent_id: agentId, created_at: clock.now().toISOString() })
          .returning();
        if (members.length) await tx.insert(accountCustomers).values(members.map((c) => ({ account_id: a!.id, customer_id: c })));
        await audit(tx, clock.now(), caller, "create", "account", a!.id, { name: input.name, credit_limit_cents: a!.credit_limit, customers: members });
        return a!;
      });
      return out(row);
    },

    async update(caller: EmployeeCaller, id: number, input: AccountInput): Promise<Account> {
      const cur = await accountRow(db, caller, id);
      if (input.agent_id !== undefined && input.agent_id !== cur.agent_id) throw unprocessable("agent_id: an account stays with the shop that bills it");
      const members = await checkCustomers(input.customer_ids, cur.agent_id, id);
      await db.transaction(async (tx) => {
        await tx.update(accounts).set(values(input)).where(eq(accounts.id, id));
        await tx.delete(accountCustomers).where(eq(accountCustomers.account_id, id));
        if (members.length) await tx.insert(accountCustomers).values(members.map((c) => ({ account_id: id, customer_id: c })));
        await audit(tx, clock.now(), caller, "update", "account", id, { before: { ...cur }, customers: members });
      });
      return out(await accountRow(db, caller, id));
    },
  };
}
export type AccountService = ReturnType<typeof createAccountService>;

/** The account a customer may charge to, if any (a customer belongs to at most one). */
export async function accountOfCustomer(q: Pick<Db, "select">, customerId: number): Promise<number | null> {
  const [r] = await q.select({ id: accountCustomers.account_id }).from(accountCustomers).where(eq(accountCustomers.customer_id, customerId)).limit(1);
  return r?.id ?? null;
}
