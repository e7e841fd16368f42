import { describe, expect, test } from "bun:test";
import { balanceDue, changeDue, creditOwed } from "./money";

describe("balance, credit and change (issue 31: one rule each)", () => {
  test("balance due is what is left to pay", () => {
    expect(balanceDue(1250, 0)).toBe(1250);
    expect(balanceDue(1250, 1000)).toBe(250);
    expect(balanceDue(1250, 1250)).toBe(0);
  });

  test("a total overridden below what was paid leaves no balance but a credit the shop owes", () => {
    expect(balanceDue(800, 1000)).toBe(0);
    expect(creditOwed(800, 1000)).toBe(200);
  });

  test("no credit while anything is still due or when exactly paid", () => {
    expect(creditOwed(1250, 1000)).toBe(0);
    expect(creditOwed(1250, 1250)).toBe(0);
  });

  test("change is what was handed over less the amount; too little is no change at all", () => {
    expect(changeDue(2000, 1250)).toBe(750);
    expect(changeDue(1250, 1250)).toBe(0);
    expect(changeDue(1000, 1250)).toBeNull();
  });
});
