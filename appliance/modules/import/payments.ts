// The one place the import records money taken by the old system. Today it is the same step
// PUT /ticketSubCategory/paidFor and the paid states use (the tickets ledger's payItem: the
// item's and the ticket's paid amounts, an owing when the payer is an employee or driver;
// the import's caller is an admin, so none). When the till records payments as rows with a
// tender, this function switches to it with tender "other": nothing else in the import changes.
import { eq } from "drizzle-orm";
import { tickets } from "../../../db/schema";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { createLedger } from "../tickets/ledger";
import type { Exec } from "../tickets/repo";

/** Records `cents` paid on an item, in the caller's transaction; throws when it cannot take them all. */
export interface PaymentAdapter {
  /** `cents` paid on an item. */
  item(q: Exec, caller: EmployeeCaller, itemId: number, cents: number): Promise<void>;
  /**
   * `cents` paid on the ticket beyond its items (its pickup and delivery charges), as
   * PUT /tickets/paidFor settles them: the ticket's paid amount, and an owing for the payer.
   */
  ticket(q: Exec, caller: EmployeeCaller, ticketId: number, cents: number): Promise<void>;
}

export function importPayments(clock: Clock): PaymentAdapter {
  const ledger = createLedger(clock);
  return {
    async item(q, caller, itemId, cents) {
      const taken = await ledger.payItem(q, caller, itemId, cents);
      if (taken !== cents) throw new Error(`money check: item ${itemId} took €${(taken / 100).toFixed(2)} of €${(cents / 100).toFixed(2)} paid`);
    },
    async ticket(q, caller, ticketId, cents) {
      const t = (await q.query.tickets.findFirst({ where: eq(tickets.id, ticketId), columns: { total: true, total_paid: true } }))!;
      if (t.total_paid + cents > t.total) throw new Error(`money check: ticket ${ticketId} paid more than its total`);
      await q
        .update(tickets)
        .set({ total_paid: t.total_paid + cents })
        .where(eq(tickets.id, ticketId));
      await ledger.recordOwing(q, caller, ticketId, null, cents);
    },
  };
}
