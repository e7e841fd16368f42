import { and, eq, inArray, sql } from "drizzle-orm";
import { employeeOwings, employees, itemLogStates, signatures, ticketLogStates, ticketStates, ticketSubCategories, tickets } from "../../../db/schema";
import { balanceDue, changeDue, toEuros } from "../../domain/money";
import { PAID_STATES, stateOnConfirm } from "../../domain/states";
import type { Clock } from "../../platform/clock";
import { notFound, unprocessable } from "../../platform/errors";
import { audit } from "../audit/audit";
import { assertSameAgent, type EmployeeCaller } from "../auth/caller";
import type { Exec } from "./repo";
import { recomputeTicket } from "./totals";
import type { Tender } from "../money/model";
import { recordPayment } from "../money/service";

/**
 * How a payment is taken: the tender, for cash what was handed over (cents), and for an
 * import the time and employee it was really taken at and by (default: now, the caller).
 */
export interface PayWith {
  tender: Tender;
  tendered?: number | null;
  at?: Date;
  employee_id?: number;
}
export const CASH: PayWith = { tender: "cash" };

/**
 * The steps the ticket, item and printing use cases share. Each runs on the executor it is
 * given (the database, or the use case's transaction), so a use case made of several steps
 * commits or rolls back as one. Amounts are integer cents.
 */
export function createLedger(clock: Clock) {
  const now = () => clock.now().toISOString();

  /** A ticket of the caller's shop (HQ: any); another shop's answers 404. */
  async function ticketRow(q: Exec, caller: EmployeeCaller, id: number) {
    const t = await q.query.tickets.findFirst({ where: eq(tickets.id, id) });
    if (!t) throw notFound("Ticket");
    assertSameAgent(caller, t.agent_id, "Ticket");
    return t;
  }

  /** A state must be one of the ticket states (data, spec §4). */
  async function assertState(q: Exec, state: string) {
    if (!(await q.query.ticketStates.findFirst({ where: eq(ticketStates.name, state), columns: { id: true } })))
      throw unprocessable("State: no such ticket state");
  }

  /** A signature is stored once per change and referenced by every log row of it. */
  async function storeSignature(q: Exec, dataUrl: string | null | undefined) {
    if (!dataUrl) return null;
    if (!/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/.test(dataUrl)) throw unprocessable("Signature: must be a PNG, JPEG or WebP data URL");
    const [s] = await q.insert(signatures).values({ data_url: dataUrl, created_at: now() }).returning({ id: signatures.id });
    return s!.id;
  }

  async function logTicket(q: Exec, caller: EmployeeCaller, ticketId: number, state: string, log: string, signatureId: number | null = null) {
    await q
      .insert(ticketLogStates)
      .values({ ticket_id: ticketId, state, logged_at: now(), log, employee_id: caller.employee.id, agent_id: caller.agent.id, signature_id: signatureId });
  }

  /**
   * Cash taken by an employee or a driver is money they now hold for the shop: it is
   * recorded as an owing (100 %) and added to their pending figure until cleared. Card and
   * other tenders never pass through their hands.
   */
  async function recordOwing(q: Exec, caller: EmployeeCaller, ticketId: number, itemId: number | null, cents: number, tender: Tender = "cash") {
    if (cents <= 0 || tender !== "cash" || (caller.employee.role !== "employee" && caller.employee.role !== "driver")) return;
    await q.insert(employeeOwings).values({
      ticket_id: ticketId,
      employee_id: caller.employee.id,
      ticket_sub_category_id: itemId,
      amount: cents,
      percentage: 100,
      payment_date: now(),
      state: "OPEN",
    });
    await q
      .update(employees)
      .set({ pending: sql`${employees.pending} + ${cents}` })
      .where(eq(employees.id, caller.employee.id));
  }

  /** The payment row's fixed parts: who, when, where (a driver's stop), by which tender. */
  function rowBase(caller: EmployeeCaller, t: typeof tickets.$inferSelect, pay: PayWith, take: number) {
    if (pay.tendered != null && pay.tender !== "cash") throw unprocessable("tendered: only cash is handed over");
    if (pay.tendered != null && pay.tendered < take) throw unprocessable("tendered: less than the amount paid");
    return {
      ticket_id: t.id,
      agent_id: t.agent_id,
      employee_id: pay.employee_id ?? caller.employee.id,
      tender: pay.tender,
      // A driver takes money on the run: the row names the stop (the ticket's delivery, else its pickup).
      stop: caller.employee.role === "driver" ? (t.delivery_date ? `delivery ${t.delivery_date}` : t.pickup_date ? `pickup ${t.pickup_date}` : null) : null,
      at: pay.at ?? clock.now(),
    };
  }

  // tendered < take was refused above (422), so changeDue is never null here.
  const handedOver = (pay: PayWith, take: number) => (pay.tendered == null ? {} : { tendered: pay.tendered, change_given: changeDue(pay.tendered, take) ?? 0 });

  /**
   * Takes `cents` for an item (null: whatever is left), never more than its balance nor the
   * ticket's; one payment row (its trigger adds it to both totals). Cash is on the caller (an
   * owing for employees and drivers). Returns the cents taken.
   */
  async function payItem(q: Exec, caller: EmployeeCaller, id: number, cents: number | null, pay: PayWith = CASH): Promise<number> {
    const i = (await q.query.ticketSubCategories.findFirst({ where: eq(ticketSubCategories.id, id) }))!;
    const t = (await q.query.tickets.findFirst({ where: eq(tickets.id, i.ticket_id) }))!;
    const balance = Math.min(balanceDue(i.total_override ?? i.total, i.total_paid), balanceDue(t.total, t.total_paid));
    const take = cents ?? balance;
    if (take > balance) throw unprocessable(`amount: more than the balance of €${toEuros(balance).toFixed(2)}`);
    if (take <= 0) return 0;
    await recordPayment(q, { ...rowBase(caller, t, pay, take), item_id: id, amount: take, ...handedOver(pay, take) });
    await recordOwing(q, caller, i.ticket_id, id, take, pay.tender);
    return take;
  }

  /**
   * Takes `cents` on a ticket (null: all that is left), never more than its balance and never
   * lowering what was paid: item by item (each its own balance, oldest first), then the rest
   * (charges) on the ticket. The rows share one instant: together they are one tender.
   */
  async function payTicket(q: Exec, caller: EmployeeCaller, id: number, cents: number | null, pay: PayWith = CASH): Promise<number> {
    await recomputeTicket(q, id);
    const t = (await q.query.tickets.findFirst({ where: eq(tickets.id, id) }))!;
    const balance = balanceDue(t.total, t.total_paid);
    const take = cents ?? balance;
    if (take > balance) throw unprocessable(`amount: more than the balance of €${toEuros(balance).toFixed(2)}`);
    if (take <= 0) return 0;
    const base = rowBase(caller, t, pay, take);
    let left = take;
    // The cash handed over and the change are on the tender's first row.
    let cash = handedOver(pay, take);
    const items = await q.select().from(ticketSubCategories).where(eq(ticketSubCategories.ticket_id, id)).orderBy(ticketSubCategories.id);
    for (const i of items) {
      const part = Math.min(left, Math.max(0, (i.total_override ?? i.total) - i.total_paid));
      if (part <= 0) continue;
      await recordPayment(q, { ...base, item_id: i.id, amount: part, ...cash });
      cash = {};
      left -= part;
    }
    if (left > 0) await recordPayment(q, { ...base, item_id: null, amount: left, ...cash });
    await recordOwing(q, caller, id, null, take, pay.tender);
    return take;
  }

  /**
   * Confirms a ticket that is not empty (spec §2/§4; printing does this too). A new ticket
   * leaves CREATED: to AWAITING PICKUP when it is to be collected from the client, otherwise
   * to the spec's empty state ("", garments at the counter). Confirming twice changes nothing.
   */
  async function confirm(q: Exec, caller: EmployeeCaller, t: typeof tickets.$inferSelect) {
    const [item] = await q.select({ id: ticketSubCategories.id }).from(ticketSubCategories).where(eq(ticketSubCategories.ticket_id, t.id)).limit(1);
    if (!item) throw unprocessable("Ticket is empty");
    if (t.confirmed_at) return;
    const state = stateOnConfirm(t);
    await q.update(tickets).set({ confirmed_at: now(), state }).where(eq(tickets.id, t.id));
    if (state !== t.state) {
      await q
        .update(ticketSubCategories)
        .set({ state })
        .where(and(eq(ticketSubCategories.ticket_id, t.id), eq(ticketSubCategories.state, "CREATED")));
      await logTicket(q, caller, t.id, state, "Ticket confirmed");
    }
  }

  /**
   * Sets a state on items the caller may see (checked before: `found` names each item's
   * ticket), with one signature for the whole change. The ticket's history (the customer's
   * history dialog) shows the change and its signature too. A paid state on an item with a
   * balance takes the balance as paid to the caller.
   */
  async function setItemsState(q: Exec, caller: EmployeeCaller, found: { id: number; ticket_id: number }[], state: string, signature?: string | null) {
    const ids = found.map((f) => f.id);
    await assertState(q, state);
    const sig = await storeSignature(q, signature);
    const at = now();
    await q.update(ticketSubCategories).set({ state }).where(inArray(ticketSubCategories.id, ids));
    await q
      .insert(itemLogStates)
      .values(ids.map((i) => ({ ticket_sub_category_id: i, state, logged_at: at, log: "State changed", employee_id: caller.employee.id, signature_id: sig })));
    const perTicket = new Map<number, number>();
    for (const f of found) perTicket.set(f.ticket_id, (perTicket.get(f.ticket_id) ?? 0) + 1);
    for (const [ticketId, n] of perTicket) await logTicket(q, caller, ticketId, state, `${n} item${n === 1 ? "" : "s"} set to ${state || "(none)"}`, sig);
    await audit(q, clock.now(), caller, "change_state", "ticket_sub_category", null, { ids, state });
    if (PAID_STATES.includes(state)) {
      for (const ticketId of perTicket.keys()) await recomputeTicket(q, ticketId);
      for (const i of ids) {
        const taken = await payItem(q, caller, i, null);
        if (taken > 0) await audit(q, clock.now(), caller, "payment", "ticket_sub_category", i, { amount_cents: taken, state });
      }
    }
  }

  return { ticketRow, assertState, storeSignature, logTicket, recordOwing, payItem, payTicket, confirm, setItemsState };
}
export type Ledger = ReturnType<typeof createLedger>;
