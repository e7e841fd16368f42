/**
 * Payments on account, statements and the aged report (issue 34). A payment settles the
 * oldest open invoices unless told which; what no invoice takes stays as credit on the
 * account. The statement and the aged report read the same rows, so they agree to the cent
 * with the account's balance: closing balance + not invoiced = balance = the aged buckets + not invoiced.
 */
import { and, asc, eq, inArray, lt, lte, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accountCharges, accountPayments, accounts, creditNotes, invoiceLines, invoices, paymentAllocations } from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { toCents, toEuros } from "../../domain/money";
import { dayStartUtc } from "../../domain/schedule";
import type { Clock } from "../../platform/clock";
import { notFound, unprocessable } from "../../platform/errors";
import { agentNames } from "../agents/reads";
import { audit } from "../audit/audit";
import { agentScope, type EmployeeCaller } from "../auth/caller";
import { invoiceFigures } from "./invoices";
import type { Aged, PAYMENT_METHODS, Statement } from "./model";
import { accountRow, balanceOf } from "./service";

type Method = (typeof PAYMENT_METHODS)[number];

/** Days between two shop days (b − a). */
const daysBetween = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/** The aged report's bucket of an invoice issued `age` days ago. */
export const bucketOf = (age: number) => (age <= 30 ? "d0_30" : age <= 60 ? "d31_60" : age <= 90 ? "d61_90" : "d90_plus");

export function createBooks({ db, clock }: { db: Db; clock: Clock }) {
  async function paymentOut(id: number) {
    const [p] = await db.select().from(accountPayments).where(eq(accountPayments.id, id));
    const allocs = await db
      .select({ invoice_id: paymentAllocations.invoice_id, number: invoices.number, amount: paymentAllocations.amount })
      .from(paymentAllocations)
      .innerJoin(invoices, eq(invoices.id, paymentAllocations.invoice_id))
      .where(eq(paymentAllocations.account_payment_id, id))
      .orderBy(asc(paymentAllocations.id));
    const used = allocs.reduce((s, a) => s + a.amount, 0);
    return {
      id: p!.id,
      account_id: p!.account_id,
      amount: toEuros(p!.amount),
      method: p!.method as Method,
      reference: p!.reference,
      received_on: p!.received_on,
      allocations: allocs.map((a) => ({ invoice_id: a.invoice_id, invoice_number: a.number, amount: toEuros(a.amount) })),
      unallocated: toEuros(p!.amount - used),
    };
  }

  /** Open invoices of an account, oldest first, with what each still asks (cents). */
  async function openInvoices(q: Pick<Db, "select">, accountId: number) {
    const rows = await q.select().from(invoices).where(eq(invoices.account_id, accountId)).orderBy(asc(invoices.issued_on), asc(invoices.id));
    const out: { inv: typeof invoices.$inferSelect; open: number }[] = [];
    for (const inv of rows) {
      const { open } = await invoiceFigures(q, inv.id);
      if (open > 0) out.push({ inv, open });
    }
    return out;
  }

  /** Rows of the statement's kinds up to a day: [day, kind, reference, cents] (+ owed, − paid or credited). */
  async function events(accountId: number, to: string) {
    const inv = await db
      .select({
        day: invoices.issued_on,
        ref: invoices.number,
        id: invoices.id,
        cents: sql<number>`(SELECT coalesce(sum(gross), 0) FROM invoice_lines l WHERE l.invoice_id = "invoices"."id")`,
      })
      .from(invoices)
      .where(and(eq(invoices.account_id, accountId), lte(invoices.issued_on, to)));
    const cn = await db
      .select({ day: creditNotes.issued_on, ref: creditNotes.number, id: creditNotes.id, cents: creditNotes.amount })
      .from(creditNotes)
      .where(and(eq(creditNotes.account_id, accountId), lte(creditNotes.issued_on, to)));
    const pay = await db
      .select({
        day: accountPayments.received_on,
        ref: accountPayments.reference,
        method: accountPayments.method,
        id: accountPayments.id,
        cents: accountPayments.amount,
      })
      .from(accountPayments)
      .where(and(eq(accountPayments.account_id, accountId), lte(accountPayments.received_on, to)));
    const order = { invoice: 0, credit_note: 1, payment: 2 } as const;
    return [
      ...inv.map((r) => ({ day: r.day, kind: "invoice" as const, reference: r.ref, id: r.id, cents: Number(r.cents) })),
      ...cn.map((r) => ({ day: r.day, kind: "credit_note" as const, reference: r.ref, id: r.id, cents: -r.cents })),
      ...pay.map((r) => ({
        day: r.day,
        kind: "payment" as const,
        reference: `Payment ${r.id} (${r.method.replace("_", " ")})${r.ref ? ` ${r.ref}` : ""}`,
        id: r.id,
        cents: -r.cents,
      })),
    ].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : order[a.kind] - order[b.kind] || a.id - b.id));
  }

  /** Charged up to the end of `to` and not on an invoice issued by then (cents). */
  async function notInvoiced(accountId: number, to: string) {
    const [c] = await db
      .select({ s: sql<number>`coalesce(sum(${accountCharges.amount}), 0)` })
      .from(accountCharges)
      .where(and(eq(accountCharges.account_id, accountId), lt(accountCharges.at, dayStartUtc(addDays(to, 1)))));
    const [i] = await db
      .select({ s: sql<number>`coalesce(sum(${invoiceLines.gross}), 0)` })
      .from(invoiceLines)
      .innerJoin(invoices, eq(invoices.id, invoiceLines.invoice_id))
      .where(and(eq(invoices.account_id, accountId), lte(invoices.issued_on, to)));
    return Number(c?.s ?? 0) - Number(i?.s ?? 0);
  }

  return {
    paymentOut,

    /** Money received on an account, allocated as asked or to the oldest open invoices; the rest stays as credit. */
    async pay(
      caller: EmployeeCaller,
      accountId: number,
      input: { amount: number; method: Method; reference: string; allocations?: { invoice_id: number; amount: number }[] },
    ) {
      const cents = toCents(input.amount);
      const now = clock.now();
      const id = await db.transaction(async (tx) => {
        const a = await accountRow(tx, caller, accountId);
        const [p] = await tx
          .insert(accountPayments)
          .values({
            agent_id: a.agent_id,
            account_id: a.id,
            amount: cents,
            method: input.method,
            reference: input.reference,
            received_on: businessDay(now),
            employee_id: caller.employee.id,
            created_at: now.toISOString(),
          })
          .returning();
        const open = await openInvoices(tx, a.id);
        let plan: { invoice_id: number; amount: number }[];
        if (input.allocations) {
          const ids = input.allocations.map((x) => x.invoice_id);
          if (new Set(ids).size !== ids.length) throw unprocessable("allocations: an invoice is named twice");
          const mine = await tx
            .select({ id: invoices.id })
            .from(invoices)
            .where(and(inArray(invoices.id, ids), eq(invoices.account_id, a.id)));
          if (mine.length !== ids.length) throw notFound("Invoice");
          plan = input.allocations.map((x) => ({ invoice_id: x.invoice_id, amount: toCents(x.amount) }));
          if (plan.reduce((s, x) => s + x.amount, 0) > cents) throw unprocessable("allocations: more than the payment");
          for (const x of plan) {
            const o = open.find((i) => i.inv.id === x.invoice_id)?.open ?? 0;
            if (x.amount > o) throw unprocessable(`allocations: more than invoice ${x.invoice_id} still asks (€${toEuros(o).toFixed(2)})`);
          }
        } else {
          plan = [];
          let left = cents;
          for (const i of open) {
            if (left <= 0) break;
            const take = Math.min(left, i.open);
            plan.push({ invoice_id: i.inv.id, amount: take });
            left -= take;
          }
        }
        if (plan.length) await tx.insert(paymentAllocations).values(plan.map((x) => ({ account_payment_id: p!.id, ...x })));
        await audit(tx, now, caller, "payment", "account", a.id, { amount_cents: cents, method: input.method, allocations: plan });
        return p!.id;
      });
      return paymentOut(id);
    },

    async statement(caller: EmployeeCaller, accountId: number, from: string, to: string): Promise<Statement> {
      const a = await accountRow(db, caller, accountId);
      const all = await events(a.id, to);
      const opening = all.filter((e) => e.day < from).reduce((s, e) => s + e.cents, 0);
      let running = opening;
      const lines = all
        .filter((e) => e.day >= from)
        .map((e) => {
          running += e.cents;
          return { date: e.day, kind: e.kind, reference: e.reference, amount: toEuros(e.cents), balance: toEuros(running) };
        });
      return {
        account_id: a.id,
        account_name: a.name,
        from,
        to,
        opening_balance: toEuros(opening),
        lines,
        closing_balance: toEuros(running),
        not_invoiced: toEuros(await notInvoiced(a.id, to)),
      };
    },

    /**
     * Every account's balance (the caller's shop; HQ: all) by the age of its open invoices
     * from their date: 0–30, 31–60, 61–90, 90+ days. Money received and not yet allocated is
     * credit in 0–30; charges not invoiced yet are their own column.
     */
    /** `site`: the site whose copy this database is, at HQ (null: the box's own database). */
    async aged(caller: EmployeeCaller, site: string | null = null): Promise<Aged> {
      const on = businessDay(clock.now());
      const scope = agentScope(caller);
      const list = await db
        .select()
        .from(accounts)
        .where(scope ? inArray(accounts.agent_id, scope) : undefined)
        .orderBy(asc(accounts.name), asc(accounts.id));
      const zero = () => ({ not_invoiced: 0, d0_30: 0, d31_60: 0, d61_90: 0, d90_plus: 0, balance: 0 });
      const totals = zero();
      const rows: Aged["accounts"] = [];
      const shops = await agentNames(
        db,
        list.map((a) => a.agent_id),
      );
      for (const a of list) {
        const r = zero();
        for (const i of await openInvoices(db, a.id)) r[bucketOf(daysBetween(i.inv.issued_on, on))] += i.open;
        const [u] = await db
          .select({
            s: sql<number>`coalesce(sum(${accountPayments.amount} - (SELECT coalesce(sum(amount), 0) FROM payment_allocations x WHERE x.account_payment_id = "account_payments"."id")), 0)`,
          })
          .from(accountPayments)
          .where(eq(accountPayments.account_id, a.id));
        r.d0_30 -= Number(u?.s ?? 0);
        r.not_invoiced = await notInvoiced(a.id, "9999-12-31");
        r.balance = r.not_invoiced + r.d0_30 + r.d31_60 + r.d61_90 + r.d90_plus;
        // The buckets are another reading of the same rows: they must come to the balance.
        const balance = await balanceOf(db, a.id);
        if (balance !== r.balance) throw new Error(`aged report: account ${a.id} buckets ${r.balance} differ from its balance ${balance}`);
        for (const k of Object.keys(totals) as (keyof typeof totals)[]) totals[k] += r[k];
        const euros = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, toEuros(v)])) as typeof r;
        const shop = shops.get(a.agent_id)?.name ?? `Shop ${a.agent_id}`;
        rows.push({ account_id: a.id, agent_id: a.agent_id, agent_name: shop, site, name: a.name, ...euros });
      }
      return { on, accounts: rows, totals: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, toEuros(v)])) as Aged["totals"] };
    },
  };
}
export type Books = ReturnType<typeof createBooks>;

/**
 * The aged reports of several databases as one (HQ: its own and each site's copy): their rows
 * one after the other, each naming its site, and the totals added up in cents.
 */
export function mergeAged(parts: Aged[]): Aged {
  const keys = ["not_invoiced", "d0_30", "d31_60", "d61_90", "d90_plus", "balance"] as const;
  const totals = Object.fromEntries(keys.map((k) => [k, toEuros(parts.reduce((s, p) => s + toCents(p.totals[k]), 0))])) as Aged["totals"];
  return { on: parts[0]?.on ?? "", accounts: parts.flatMap((p) => p.accounts), totals };
}
