/**
 * The act of paying (issue 31: money in one module): how much of a bill may be taken, the
 * payment rows that take it (their trigger adds them to the item's and the ticket's paid
 * totals, migration 0014), and the owing of an employee or driver who now holds the cash.
 * Tickets knows what is owed and hands it over as a Bill; money decides what is taken and
 * writes it. Each step runs on the executor it is given (the caller's transaction), so a use
 * case made of several steps commits or rolls back as one. Amounts are integer cents.
 */
import { balanceDue, changeDue, toEuros } from "../../domain/money";
import type { Clock } from "../../platform/clock";
import { unprocessable } from "../../platform/errors";
import type { EmployeeCaller } from "../auth/caller";
import { recordOwing as addOwing } from "../employees/service";
import { type AccountCharge, recordCharge } from "../accounts/service";
import type { ApprovalInput } from "../approval/service";
import type { PayMethod } from "./model";
import type { Exec, ImportedAs } from "./repo";

export type { ImportedAs };
import { paymentTillDay, recordPayment } from "./service";

/**
 * How a payment is taken: the tender, for cash what was handed over (cents), and for an
 * import the time and employee it was really taken at and by (default: now, the caller).
 */
export interface PayWith {
  tender: PayMethod;
  tendered?: number | null;
  at?: Date;
  employee_id?: number;
  /** Money the old system took (an import): history in no drawer, or today's cash (money/takings.ts). */
  imported?: ImportedAs;
  /** Tender `account` (issue 34): the account charged, decided before the transaction (accounts/service). */
  account?: AccountCharge;
  /** A manager's PIN the request carried (a charge past an account's credit limit). */
  approval?: ApprovalInput;
}
export const CASH: PayWith = { tender: "cash" };

/** A ticket's figures as tickets keeps them (cents), and where a driver would take its money. */
export interface BillTicket {
  id: number;
  agent_id: number;
  total: number;
  total_paid: number;
  pickup_date: string | null;
  delivery_date: string | null;
}
/** An item's figures (cents): what it costs (its override, if any) and what was paid on it. */
export interface BillItem {
  id: number;
  total: number;
  total_override: number | null;
  total_paid: number;
}
/** What a ticket owes, handed over by tickets (its totals recomputed first): the ticket and its items, oldest first. */
export interface Bill {
  ticket: BillTicket;
  items: BillItem[];
}

export function createPaySteps(clock: Clock) {
  /**
   * Cash taken by an employee or a driver is money they now hold for the shop: it is
   * recorded as an owing (100 %) and added to their pending figure until cleared. Card and
   * other tenders never pass through their hands.
   */
  async function recordOwing(q: Exec, caller: EmployeeCaller, ticketId: number, itemId: number | null, cents: number, tender: PayMethod = "cash") {
    if (cents <= 0 || tender !== "cash" || (caller.employee.role !== "employee" && caller.employee.role !== "driver")) return;
    await addOwing(q, { ticket_id: ticketId, employee_id: caller.employee.id, item_id: itemId, cents, at: clock.now().toISOString() });
  }

  /** The payment row's fixed parts: who, when, where (a driver's stop), by which tender. */
  function rowBase(caller: EmployeeCaller, t: BillTicket, pay: PayWith, take: number) {
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
      imported: pay.imported,
      approved_by: pay.account?.approver ?? null,
    };
  }

  /** One payment row, and for the account tender the account's charge row beside it. */
  async function takeRow(q: Exec, p: Parameters<typeof recordPayment>[1], pay: PayWith) {
    const row = await recordPayment(q, p);
    if (pay.tender === "account") await recordCharge(q, row, pay.account ?? null);
  }

  // tendered < take was refused above (422), so changeDue is never null here.
  const handedOver = (pay: PayWith, take: number) => (pay.tendered == null ? {} : { tendered: pay.tendered, change_given: changeDue(pay.tendered, take) ?? 0 });

  /**
   * Takes `cents` for an item of the bill (null: whatever is left), never more than its
   * balance nor the ticket's; one payment row. Cash is on the caller (an owing for employees
   * and drivers). Returns the cents taken.
   */
  async function payItem(q: Exec, caller: EmployeeCaller, bill: Bill, id: number, cents: number | null, pay: PayWith = CASH): Promise<number> {
    const i = bill.items.find((x) => x.id === id);
    if (!i) throw new Error(`pay: item ${id} is not on the bill of ticket ${bill.ticket.id}`);
    const t = bill.ticket;
    const balance = Math.min(balanceDue(i.total_override ?? i.total, i.total_paid), balanceDue(t.total, t.total_paid));
    const take = cents ?? balance;
    if (take > balance) throw unprocessable(`amount: more than the balance of €${toEuros(balance).toFixed(2)}`);
    if (take <= 0) return 0;
    await takeRow(q, { ...rowBase(caller, t, pay, take), item_id: id, amount: take, ...handedOver(pay, take) }, pay);
    await recordOwing(q, caller, t.id, id, take, pay.tender);
    return take;
  }

  /**
   * Takes `cents` on a ticket (null: all that is left), never more than its balance and never
   * lowering what was paid: item by item (each its own balance, oldest first), then the rest
   * (charges) on the ticket. The rows share one instant: together they are one tender.
   */
  async function payTicket(q: Exec, caller: EmployeeCaller, bill: Bill, cents: number | null, pay: PayWith = CASH): Promise<number> {
    const t = bill.ticket;
    const balance = balanceDue(t.total, t.total_paid);
    const take = cents ?? balance;
    if (take > balance) throw unprocessable(`amount: more than the balance of €${toEuros(balance).toFixed(2)}`);
    if (take <= 0) return 0;
    const rowParts = rowBase(caller, t, pay, take);
    // Every row of this tender has the same taker and instant, hence the same till day: worked
    // out once rather than per row (two reads each).
    const base = { ...rowParts, till_day: await paymentTillDay(q, { ...rowParts, item_id: null, amount: take }) };
    let left = take;
    // The cash handed over and the change are on the tender's first row.
    let cash = handedOver(pay, take);
    for (const i of bill.items) {
      const part = Math.min(left, Math.max(0, (i.total_override ?? i.total) - i.total_paid));
      if (part <= 0) continue;
      await takeRow(q, { ...base, item_id: i.id, amount: part, ...cash }, pay);
      cash = {};
      left -= part;
    }
    if (left > 0) await takeRow(q, { ...base, item_id: null, amount: left, ...cash }, pay);
    await recordOwing(q, caller, t.id, null, take, pay.tender);
    return take;
  }

  /**
   * Takes `cents` on the ticket as a whole (its pickup and delivery charges, or a part payment
   * the old system kept on no item), never onto an item, never more than the ticket's balance:
   * one row on no item. An import records the source's money so; payTicket would spread it
   * onto the items with a balance first, and the items would then differ from the source's.
   */
  async function payCharges(q: Exec, caller: EmployeeCaller, bill: Bill, cents: number, pay: PayWith = CASH): Promise<number> {
    const t = bill.ticket;
    const balance = balanceDue(t.total, t.total_paid);
    if (cents > balance) throw unprocessable(`amount: more than the balance of €${toEuros(balance).toFixed(2)}`);
    if (cents <= 0) return 0;
    await takeRow(q, { ...rowBase(caller, t, pay, cents), item_id: null, amount: cents, ...handedOver(pay, cents) }, pay);
    await recordOwing(q, caller, t.id, null, cents, pay.tender);
    return cents;
  }

  return { recordOwing, payItem, payTicket, payCharges };
}
export type PaySteps = ReturnType<typeof createPaySteps>;
