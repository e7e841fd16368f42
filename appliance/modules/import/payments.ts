// The one place the import decides what money the old system took and when: as payment rows
// of tender "other" (issue 24: the old system kept no tender), one per item paid and one on the
// ticket as a whole for the rest (its pickup and delivery charges), dated from the source and
// marked imported (issue 32: history in no drawer, but what the old till took on the import's own
// day is cash in today's drawer; docs/decisions/imported-payments.md). The
// record path writes them through money's pay steps (money/pay.ts: payItem, payCharges) on the bill the tickets ledger reads, the page-at-a-time
// path (bulk.ts) as the same rows at once: both take them from `sourcePayments`, so a ticket is
// written the same whichever path takes it (bulkSame.test.ts compares every row).
import { businessDay } from "../../domain/dates";
import { PAID_STATES } from "../../domain/states";
import type { Clock } from "../../platform/clock";
import type { EmployeeCaller } from "../auth/caller";
import { createPaySteps, type ImportedAs, type PayWith } from "../money/pay";
import { createLedger } from "../tickets/ledger";
import type { Exec } from "../tickets/repo";
import type { Ticket } from "./records";

/** One row of money the source says was paid and this box does not hold yet. */
export interface SourcePayment {
  /** The item paid; null: the ticket as a whole (its charges). */
  item: number | null;
  amount: number;
  at: Date;
  /** "today": the source dates it on the import's own day, so it is cash in today's drawer. */
  as: ImportedAs;
}

/** What this box already holds of a ticket's money, from its rows: per item, and on no item. */
export interface HeldHere {
  items: ReadonlyMap<number, number>;
  onTicket: number;
}
export const NOTHING_HERE: HeldHere = { items: new Map(), onTicket: 0 };

const firstPaid = (logs: readonly { state: string; logged_at: string }[]) =>
  logs
    .filter((l) => PAID_STATES.includes(l.state))
    .map((l) => l.logged_at)
    .sort()[0];

/**
 * When the source's money was taken, as near as its records say: the first log of a paid state
 * (the item's own, else the ticket's), else the ticket's confirmation, else its creation, else
 * the run's time. The old system's API keeps no payment rows, only paid amounts and logs.
 *
 * Dated on the import's own day (in the shop's zone), the money was taken by the old till today:
 * it is in today's drawer, which the shop counts tonight, so it counts there ("today"); dated on
 * an earlier day it is history the old system counted and banked ("history", in no drawer). Money
 * the source does not date at all is history too: nothing says it was taken today.
 */
export function paidAt(t: Ticket, item: Ticket["ticket_sub_categories"][number] | null, now: Date): { at: Date; as: ImportedAs } {
  const at = (item && firstPaid(item.log_states)) ?? firstPaid(t.ticket_log_states) ?? t.confirmed_at ?? t.created_at;
  if (!at) return { at: now, as: "history" };
  const when = new Date(at);
  return { at: when, as: businessDay(when) === businessDay(now) ? "today" : "history" };
}

/**
 * The rows that bring what this box holds of a ticket's money to what the source says was paid:
 * per item its difference, then on the ticket the rest. A second run pays only the difference;
 * less at the source than here (a refund there) is refused, the record keeps its money.
 */
export function sourcePayments(t: Ticket, here: HeldHere, now: Date): SourcePayment[] {
  const out: SourcePayment[] = [];
  let itemsPaid = 0;
  for (const i of t.ticket_sub_categories) {
    itemsPaid += i.total_paid;
    const held = here.items.get(i.id) ?? 0;
    if (held > i.total_paid)
      throw new Error(
        `money check: item ${i.id} was paid €${(held / 100).toFixed(2)} here and €${(i.total_paid / 100).toFixed(2)} at the source (a refund is not imported)`,
      );
    if (i.total_paid > held) out.push({ item: i.id, amount: i.total_paid - held, ...paidAt(t, i, now) });
  }
  const onTicket = t.total_paid - itemsPaid;
  if (onTicket < 0)
    throw new Error(`money check: ticket ${t.id} paid €${(t.total_paid / 100).toFixed(2)}, less than its items' €${(itemsPaid / 100).toFixed(2)}`);
  if (here.onTicket > onTicket)
    throw new Error(
      `money check: ticket ${t.id} holds €${(here.onTicket / 100).toFixed(2)} on no item here and €${(onTicket / 100).toFixed(2)} at the source (a refund is not imported)`,
    );
  if (onTicket > here.onTicket) out.push({ item: null, amount: onTicket - here.onTicket, ...paidAt(t, null, now) });
  return out;
}

/**
 * Records what the source says was paid on a ticket beyond what this box holds (`sourcePayments`),
 * in the caller's transaction; throws when a row cannot be taken whole.
 */
export interface PaymentAdapter {
  pay(q: Exec, caller: EmployeeCaller, t: Ticket, here: HeldHere): Promise<void>;
}

/**
 * The ledger's steps, as the pay routes take money, with the source's time and the import's
 * mark; `now` (the run's start) dates money the source's records do not date.
 */
export function importPayments(clock: Clock, now: Date): PaymentAdapter {
  const ledger = createLedger(clock);
  const money = createPaySteps(clock);
  return {
    async pay(q, caller, t, here) {
      const ticketId = t.id;
      for (const r of sourcePayments(t, here, now)) {
        const how: PayWith = { tender: "other", at: r.at, imported: r.as };
        const taken =
          r.item == null
            ? await money.payCharges(q, caller, await ledger.bill(q, ticketId), r.amount, how).catch((e: Error) => {
                throw new Error(`money check: ticket ${ticketId}: ${e.message}`);
              })
            : await money.payItem(q, caller, await ledger.itemBill(q, r.item), r.item, r.amount, how);
        if (taken !== r.amount)
          throw new Error(
            `money check: ${r.item == null ? `ticket ${ticketId}` : `item ${r.item}`} took €${(taken / 100).toFixed(2)} of €${(r.amount / 100).toFixed(2)} paid`,
          );
      }
    },
  };
}
