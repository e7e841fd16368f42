// The one place the import records money taken by the old system: as payment rows of tender
// "other" (issue 24: the old system kept no tender), through the same pay steps (money/pay.ts)
// the pay routes use, on the bill the tickets ledger reads, so the rows' triggers keep the
// item's and the ticket's paid amounts. The import's caller is an admin, and "other" is not
// cash, so no owing is recorded.
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { createPaySteps, type PayWith } from "../money/pay";
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

const OTHER: PayWith = { tender: "other" };

export function importPayments(clock: Clock): PaymentAdapter {
  const ledger = createLedger(clock);
  const money = createPaySteps(clock);
  return {
    async item(q, caller, itemId, cents) {
      const taken = await money.payItem(q, caller, await ledger.itemBill(q, itemId), itemId, cents, OTHER);
      if (taken !== cents) throw new Error(`money check: item ${itemId} took €${(taken / 100).toFixed(2)} of €${(cents / 100).toFixed(2)} paid`);
    },
    async ticket(q, caller, ticketId, cents) {
      // The items are paid already (item() runs first): the rest is the ticket's own charges.
      const taken = await ledger
        .bill(q, ticketId)
        .then((bill) => money.payTicket(q, caller, bill, cents, OTHER))
        .catch((e: Error) => {
          throw new Error(`money check: ticket ${ticketId}: ${e.message}`);
        });
      if (taken !== cents) throw new Error(`money check: ticket ${ticketId} took €${(taken / 100).toFixed(2)} of €${(cents / 100).toFixed(2)} paid`);
    },
  };
}
