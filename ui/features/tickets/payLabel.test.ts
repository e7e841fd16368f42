import { expect, test } from "bun:test";
import { payLabel } from "./api";

const fmt = (n: number) => `€${n.toFixed(2)}`;

test("the pay button: the balance, PAID, or the credit the shop owes when the total was overridden below what was paid", () => {
  expect(payLabel({ total: 12.5, total_paid: 2.5 }, fmt)).toBe("€10.00");
  expect(payLabel({ total: 12.5, total_paid: 12.5 }, fmt)).toBe("PAID");
  expect(payLabel({ total: 8, total_paid: 10 }, fmt)).toBe("Credit €2.00");
  // An item's override replaces its total.
  expect(payLabel({ total: 10, total_override: 7.5, total_paid: 10 }, fmt)).toBe("Credit €2.50");
  expect(payLabel({ total: 10, total_override: null, total_paid: 0.1 }, fmt)).toBe("€9.90");
});
