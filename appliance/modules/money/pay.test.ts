// Money decides what a bill lets it take (money/pay.ts, issue 31): a refusal comes before any
// row is written. The rows themselves are proven through the API (payments.test.ts, tickets').
import { describe, expect, test } from "bun:test";
import { fixedClock } from "../../platform/clock";
import type { EmployeeCaller } from "../auth/caller";
import { type Bill, createPaySteps } from "./pay";
import type { Exec } from "./repo";

// Any use of the executor is a write (or a read for one) the steps should not have reached.
const untouched = new Proxy({} as Exec, {
  get: (_t, name) => {
    throw new Error(`the executor was used (${String(name)})`);
  },
});
const clerk = { kind: "employee", agent: { id: 2 }, employee: { id: 7, role: "employee" } } as unknown as EmployeeCaller;
const pay = createPaySteps(fixedClock("2026-11-30T17:00:00Z"));
/** €16: two shirts at €3 and a suit of €12.50 overridden to €10; €5 paid (€3 + €2). */
const bill = (): Bill => ({
  ticket: { id: 1, agent_id: 2, total: 1600, total_paid: 500, pickup_date: null, delivery_date: null },
  items: [
    { id: 10, total: 300, total_override: null, total_paid: 300 },
    { id: 11, total: 300, total_override: null, total_paid: 200 },
    { id: 12, total: 1250, total_override: 1000, total_paid: 0 },
  ],
});

describe("money's pay steps (issue 31)", () => {
  test("more than the item's balance (its override counts) is refused before anything is written", async () => {
    await expect(pay.payItem(untouched, clerk, bill(), 12, 1001)).rejects.toThrow("more than the balance of €10.00");
    await expect(pay.payItem(untouched, clerk, bill(), 11, 101)).rejects.toThrow("more than the balance of €1.00");
  });

  test("more than the ticket's balance, or cash handed over short or by card, is refused before anything is written", async () => {
    await expect(pay.payTicket(untouched, clerk, bill(), 1101)).rejects.toThrow("more than the balance of €11.00");
    await expect(pay.payTicket(untouched, clerk, bill(), 500, { tender: "cash", tendered: 499 })).rejects.toThrow("tendered: less than");
    await expect(pay.payTicket(untouched, clerk, bill(), 500, { tender: "card", tendered: 500 })).rejects.toThrow("only cash is handed over");
  });

  test("nothing owed takes nothing and writes nothing; an item not on the bill is a programming error", async () => {
    expect(await pay.payItem(untouched, clerk, bill(), 10, null)).toBe(0);
    const paid = bill();
    paid.ticket.total_paid = paid.ticket.total;
    expect(await pay.payTicket(untouched, clerk, paid, null)).toBe(0);
    expect(await pay.payItem(untouched, clerk, paid, 12, null)).toBe(0);
    await expect(pay.payItem(untouched, clerk, bill(), 99, 100)).rejects.toThrow("not on the bill");
  });
});
