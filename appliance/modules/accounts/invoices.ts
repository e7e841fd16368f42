/**
 * Invoices and credit notes (issue 34). An invoice bills an account's charges of a period not
 * yet billed, with a number in its shop's own series (gap-free: the counter steps in the
 * invoice's transaction, and the database refuses a number that is not the counter's); it is
 * never edited or deleted, a credit note takes money off it. Totals are never stored: they
 * are the sums of the lines, and the lines' gross the sum of the charges they bill.
 */
import { and, asc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import {
  accountCharges,
  accountPayments,
  creditNotes,
  documentCounters,
  invoiceCharges,
  invoiceLines,
  invoicePrefixes,
  invoices,
  invoiceSends,
  paymentAllocations,
} from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { toCents, toEuros } from "../../domain/money";
import { VAT_RATE, vatSplit } from "../../domain/pricing";
import { dayStartUtc } from "../../domain/schedule";
import type { Clock } from "../../platform/clock";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import { agentReads } from "../agents/reads";
import { audit } from "../audit/audit";
import { assertSameAgent, type EmployeeCaller } from "../auth/caller";
import { itemDescriptions } from "../tickets/reads";
import type { CreditNote, Invoice, InvoiceAllocation } from "./model";
import { accountRow, type Exec } from "./service";

export type InvoiceRow = typeof invoices.$inferSelect;
type Series = "invoice" | "credit";

/** VAT in hundredths of a percent (18 % → 1800): the catalogue's prices include it. */
export const VAT_HUNDREDTHS = Math.round(VAT_RATE * 10_000);

/** A shop's invoice prefix: HQ's, else "S" and the shop's id (unique, so no two shops share a series). */
export async function prefixOf(q: Pick<Db, "select">, agentId: number): Promise<string> {
  const [r] = await q.select({ p: invoicePrefixes.prefix }).from(invoicePrefixes).where(eq(invoicePrefixes.agent_id, agentId));
  return r?.p ?? `S${agentId}`;
}

/**
 * The next number of a shop's series for a year, in the caller's transaction: the counter row
 * steps by one (its trigger refuses anything else), so a rolled-back document gives its number
 * back and two documents never share one.
 */
export async function nextNumber(tx: Exec, agentId: number, series: Series, year: number): Promise<number> {
  const [r] = await tx
    .insert(documentCounters)
    .values({ agent_id: agentId, series, year, last: 1 })
    .onConflictDoUpdate({
      target: [documentCounters.agent_id, documentCounters.series, documentCounters.year],
      set: { last: sql`${documentCounters.last} + 1` },
    })
    .returning({ last: documentCounters.last });
  return r!.last;
}

export const invoiceNumber = (prefix: string, year: number, seq: number) => `${prefix}-${year}-${String(seq).padStart(6, "0")}`;
export const creditNumber = (prefix: string, year: number, seq: number) => `${prefix}-CN-${year}-${String(seq).padStart(6, "0")}`;

/** Net, VAT and gross of a VAT-inclusive amount: net + VAT = gross exactly (the remainder is the VAT's). */
export function splitLine(gross: number): { net: number; vat: number; gross: number } {
  const { subtotal, vat } = vatSplit(gross);
  return { net: subtotal, vat, gross };
}

/** What an invoice asks and has had taken off, in cents. */
export async function invoiceFigures(q: Pick<Db, "select">, id: number) {
  const [r] = await q
    .select({
      total: sql<number>`(SELECT coalesce(sum(gross), 0) FROM invoice_lines WHERE invoice_id = ${id})`,
      credited: sql<number>`(SELECT coalesce(sum(amount), 0) FROM credit_notes WHERE invoice_id = ${id})`,
      paid: sql<number>`(SELECT coalesce(sum(amount), 0) FROM payment_allocations WHERE invoice_id = ${id})`,
    })
    .from(invoices)
    .where(eq(invoices.id, id));
  const total = Number(r?.total ?? 0);
  const credited = Number(r?.credited ?? 0);
  const paid = Number(r?.paid ?? 0);
  return { total, credited, paid, open: total - credited - paid };
}

/** An invoice of the caller's shop (HQ: any); another shop's answers 404. */
export async function invoiceRow(q: Pick<Db, "select">, caller: EmployeeCaller, id: number): Promise<InvoiceRow> {
  const [i] = await q.select().from(invoices).where(eq(invoices.id, id));
  if (!i) throw notFound("Invoice");
  assertSameAgent(caller, i.agent_id, "Invoice");
  return i;
}

export function creditOut(c: typeof creditNotes.$inferSelect, invoiceNumber: string): CreditNote {
  return {
    id: c.id,
    number: c.number,
    invoice_id: c.invoice_id,
    invoice_number: invoiceNumber,
    amount: toEuros(c.amount),
    reason: c.reason,
    issued_on: c.issued_on,
  };
}

export function createInvoiceService({ db, clock, messageStatus }: { db: Db; clock: Clock; messageStatus: (ids: number[]) => Promise<Map<number, string>> }) {
  async function summary(i: InvoiceRow) {
    const f = await invoiceFigures(db, i.id);
    const [v] = await db
      .select({ net: sql<number>`coalesce(sum(net), 0)`, vat: sql<number>`coalesce(sum(vat), 0)` })
      .from(invoiceLines)
      .where(eq(invoiceLines.invoice_id, i.id));
    return {
      id: i.id,
      number: i.number,
      agent_id: i.agent_id,
      account_id: i.account_id,
      account_name: i.account_name,
      vat_number: i.vat_number,
      period_from: i.period_from,
      period_to: i.period_to,
      issued_on: i.issued_on,
      due_on: i.due_on,
      net: toEuros(Number(v?.net ?? 0)),
      vat_total: toEuros(Number(v?.vat ?? 0)),
      total: toEuros(f.total),
      credited: toEuros(f.credited),
      paid: toEuros(f.paid),
      open: toEuros(f.open),
    };
  }

  async function full(i: InvoiceRow): Promise<Invoice> {
    const lines = await db.select().from(invoiceLines).where(eq(invoiceLines.invoice_id, i.id)).orderBy(asc(invoiceLines.id));
    const rates = new Map<number, { net: number; vat: number; gross: number }>();
    for (const l of lines) {
      const r = rates.get(l.vat_rate) ?? { net: 0, vat: 0, gross: 0 };
      r.net += l.net;
      r.vat += l.vat;
      r.gross += l.gross;
      rates.set(l.vat_rate, r);
    }
    const notes = await db.select().from(creditNotes).where(eq(creditNotes.invoice_id, i.id)).orderBy(asc(creditNotes.id));
    const paid = await db
      .select({ a: paymentAllocations, p: accountPayments })
      .from(paymentAllocations)
      .innerJoin(accountPayments, eq(accountPayments.id, paymentAllocations.account_payment_id))
      .where(eq(paymentAllocations.invoice_id, i.id))
      .orderBy(asc(accountPayments.received_on), asc(paymentAllocations.id));
    // Cents, then euros: the open amount is the total less exactly the rows listed.
    const settled = [
      ...paid.map(({ a, p }) => ({
        kind: "payment" as const,
        id: p.id,
        date: p.received_on,
        cents: a.amount,
        method: p.method as InvoiceAllocation["method"],
        reference: p.reference,
      })),
      ...notes.map((c) => ({ kind: "credit_note" as const, id: c.id, date: c.issued_on, cents: c.amount, method: null, reference: c.number })),
    ].sort((x, y) => x.date.localeCompare(y.date) || x.kind.localeCompare(y.kind) || x.id - y.id);
    const head = await summary(i);
    const open = toCents(head.total) - settled.reduce((s, x) => s + x.cents, 0);
    const sends = await db.select().from(invoiceSends).where(eq(invoiceSends.invoice_id, i.id)).orderBy(asc(invoiceSends.round));
    const status = await messageStatus(sends.map((s) => s.message_id));
    return {
      ...head,
      open: toEuros(open),
      lines: lines.map((l) => ({
        ticket_id: l.ticket_id,
        ticket_sub_category_id: l.ticket_sub_category_id,
        description: l.description,
        vat_rate: l.vat_rate / 100,
        net: toEuros(l.net),
        vat: toEuros(l.vat),
        gross: toEuros(l.gross),
      })),
      vat: [...rates].map(([rate, r]) => ({ rate: rate / 100, net: toEuros(r.net), vat: toEuros(r.vat), gross: toEuros(r.gross) })),
      credit_notes: notes.map((c) => creditOut(c, i.number)),
      allocations: settled.map(({ cents, ...x }) => ({ ...x, amount: toEuros(cents) })),
      sent: sends.map((s) => ({ message_id: s.message_id, recipient: s.recipient, status: status.get(s.message_id) ?? "unknown", at: s.created_at })),
    };
  }

  return {
    full,

    async get(caller: EmployeeCaller, id: number): Promise<Invoice> {
      return full(await invoiceRow(db, caller, id));
    },

    async list(caller: EmployeeCaller, accountId: number) {
      const a = await accountRow(db, caller, accountId);
      const rows = await db.select().from(invoices).where(eq(invoices.account_id, a.id)).orderBy(asc(invoices.issued_on), asc(invoices.id));
      return Promise.all(rows.map(summary));
    },

    /**
     * Bills the account's charges of [from, to] (the shop's days) not billed yet: one line per
     * ticket and item, net + VAT = gross to the cent, the due date from the terms. Nothing to
     * bill answers 422 and takes no number.
     */
    async create(caller: EmployeeCaller, accountId: number, input: { from: string; to: string }): Promise<Invoice> {
      const now = clock.now();
      const issued = businessDay(now);
      if (input.from > issued) throw unprocessable("from: a period that has not begun cannot be invoiced");
      const id = await db.transaction(async (tx) => {
        const a = await accountRow(tx, caller, accountId);
        const charges = await tx
          .select({ c: accountCharges })
          .from(accountCharges)
          .leftJoin(invoiceCharges, eq(invoiceCharges.charge_id, accountCharges.id))
          .where(
            and(
              eq(accountCharges.account_id, a.id),
              isNull(invoiceCharges.charge_id),
              gte(accountCharges.at, dayStartUtc(input.from)),
              lt(accountCharges.at, dayStartUtc(addDays(input.to, 1))),
            ),
          )
          .orderBy(asc(accountCharges.ticket_id), asc(accountCharges.id));
        const total = charges.reduce((s, r) => s + r.c.amount, 0);
        if (!charges.length) throw unprocessable("Nothing to invoice: the account has no charges in this period that are not invoiced yet");
        if (total <= 0) throw unprocessable(`Nothing to invoice: the period's charges add up to €${toEuros(total).toFixed(2)}`);
        const year = Number(issued.slice(0, 4));
        const seq = await nextNumber(tx, a.agent_id, "invoice", year);
        const [inv] = await tx
          .insert(invoices)
          .values({
            agent_id: a.agent_id,
            account_id: a.id,
            number: invoiceNumber(await prefixOf(tx, a.agent_id), year, seq),
            year,
            seq,
            period_from: input.from,
            period_to: input.to,
            issued_on: issued,
            due_on: addDays(issued, a.terms_days),
            account_name: a.name,
            vat_number: a.vat_number,
            employee_id: caller.employee.id,
            created_at: now.toISOString(),
          })
          .returning();
        // One line per ticket and item (a ticket's own charges: item null), its charges added up.
        const groups = new Map<string, { ticket: number; item: number | null; gross: number }>();
        for (const { c } of charges) {
          const key = `${c.ticket_id}:${c.ticket_sub_category_id ?? ""}`;
          const g = groups.get(key) ?? { ticket: c.ticket_id, item: c.ticket_sub_category_id, gross: 0 };
          g.gross += c.amount;
          groups.set(key, g);
        }
        const names = await itemDescriptions(
          tx,
          [...groups.values()].flatMap((g) => (g.item === null ? [] : [g.item])),
        );
        const lines = [...groups.values()]
          .filter((g) => g.gross !== 0)
          .map((g) => ({
            invoice_id: inv!.id,
            ticket_id: g.ticket,
            ticket_sub_category_id: g.item,
            description: `Ticket ${g.ticket}: ${g.item === null ? "charges" : names.get(g.item) || `item ${g.item}`}`,
            vat_rate: VAT_HUNDREDTHS,
            ...splitLine(g.gross),
          }));
        await tx.insert(invoiceLines).values(lines);
        await tx.insert(invoiceCharges).values(charges.map(({ c }) => ({ invoice_id: inv!.id, charge_id: c.id })));
        await audit(tx, now, caller, "create", "invoice", inv!.id, {
          number: inv!.number,
          account_id: a.id,
          total_cents: total,
          from: input.from,
          to: input.to,
        });
        return inv!.id;
      });
      return full((await db.select().from(invoices).where(eq(invoices.id, id)))[0]!);
    },

    /** Takes money off an invoice, at most what it still asks, numbered in the shop's credit-note series. */
    async credit(caller: EmployeeCaller, invoiceId: number, input: { amount: number; reason: string }): Promise<CreditNote> {
      const cents = toCents(input.amount);
      const now = clock.now();
      const issued = businessDay(now);
      const note = await db.transaction(async (tx) => {
        const inv = await invoiceRow(tx, caller, invoiceId);
        const { open } = await invoiceFigures(tx, inv.id);
        if (cents > open) throw unprocessable(`amount: more than the invoice still asks (€${toEuros(open).toFixed(2)})`);
        const year = Number(issued.slice(0, 4));
        const seq = await nextNumber(tx, inv.agent_id, "credit", year);
        const [c] = await tx
          .insert(creditNotes)
          .values({
            agent_id: inv.agent_id,
            account_id: inv.account_id,
            invoice_id: inv.id,
            number: creditNumber(await prefixOf(tx, inv.agent_id), year, seq),
            year,
            seq,
            amount: cents,
            reason: input.reason,
            issued_on: issued,
            employee_id: caller.employee.id,
            created_at: now.toISOString(),
          })
          .returning();
        await audit(tx, now, caller, "credit", "invoice", inv.id, { number: c!.number, amount_cents: cents, reason: input.reason });
        return creditOut(c!, inv.number);
      });
      return note;
    },

    /** HQ sets a shop's prefix; one already used by another shop answers 409. */
    async setPrefix(caller: EmployeeCaller, agentId: number, prefix: string) {
      if (!(await agentReads(db).shop(agentId))) throw notFound("Shop");
      const [other] = await db.select().from(invoicePrefixes).where(eq(invoicePrefixes.prefix, prefix));
      if (other && other.agent_id !== agentId) throw conflict("This prefix is another shop's");
      await db.transaction(async (tx) => {
        await tx.insert(invoicePrefixes).values({ agent_id: agentId, prefix }).onConflictDoUpdate({ target: invoicePrefixes.agent_id, set: { prefix } });
        await audit(tx, clock.now(), caller, "update", "invoice_prefix", agentId, { prefix });
      });
      return { agent_id: agentId, prefix };
    },

    async prefix(caller: EmployeeCaller, agentId: number) {
      assertSameAgent(caller, agentId, "Shop");
      return { agent_id: agentId, prefix: await prefixOf(db, agentId) };
    },
  };
}
export type InvoiceService = ReturnType<typeof createInvoiceService>;
