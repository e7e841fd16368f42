// toCents rounds half away from zero on the decimal a number is written as (issue 31), and the
// euros-to-the-cent schemas refuse a fraction of a cent instead of rounding it.
import { describe, expect, test } from "bun:test";
import { balanceDue, changeDue, creditOwed, isWholeCents, sumEuros, toCents, toEuros, typedCents } from "./money";
import { euros, eurosTextUpTo } from "./schemas";

describe("toCents: half away from zero, on the written decimal", () => {
  test("halves go away from zero, both signs", () => {
    expect(toCents(0.005)).toBe(1);
    expect(toCents(-0.005)).toBe(-1);
    expect(toCents(0.015)).toBe(2);
    expect(toCents(-0.015)).toBe(-2);
    expect(toCents(2.675)).toBe(268);
    expect(toCents(-2.675)).toBe(-268);
  });

  test("1.005 is 1.00499999999999989… in binary, yet reads 1.005: it is 101 cents (Math.round(1.005 * 100) was 100)", () => {
    expect(1.005 * 100).toBeLessThan(100.5);
    expect(toCents(1.005)).toBe(101);
    expect(toCents(-1.005)).toBe(-101);
    expect(toCents(1.045)).toBe(105);
    expect(toCents(8.345)).toBe(835);
  });

  test("below a half goes toward zero; whole cents stay as they are, float noise included", () => {
    expect(toCents(0.004)).toBe(0);
    expect(toCents(-0.004)).toBe(0);
    expect(Object.is(toCents(-0.004), -0)).toBe(false);
    expect(toCents(0.29)).toBe(29);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(10.1 - 3.2)).toBe(690);
    expect(toCents(12.5)).toBe(1250);
    expect(toCents(-18.5)).toBe(-1850);
    expect(toCents(0)).toBe(0);
    expect(toCents(1e-9)).toBe(0);
    expect(toCents(9_999_999.99)).toBe(999_999_999);
    expect(toCents(1e21)).toBe(1e23);
  });

  test("not a number stays not a number", () => {
    expect(toCents(Number.NaN)).toBeNaN();
    expect(toCents(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
  });

  test("round trips and sums", () => {
    for (let c = -1000; c <= 100_000; c += 7) expect(toCents(toEuros(c))).toBe(c);
    expect(sumEuros([0.1, 0.2])).toBe(0.3);
  });
});

describe("whole cents", () => {
  test("a tenth of a cent or less off is a fraction; binary noise on whole cents is not", () => {
    for (const n of [0.005, 0.001, 1.005, 1.0001, 0.1 + 0.0001]) expect(isWholeCents(n), String(n)).toBe(false);
    for (const n of [0, 0.29, 1.1, 19.99, 0.1 + 0.2, 10.1 - 3.2, 1_000_000]) expect(isWholeCents(n), String(n)).toBe(true);
    expect(isWholeCents(Number.NaN)).toBe(false);
  });

  test("the JSON schema refuses fractions of a cent and keeps whole ones as sent", () => {
    expect(euros.safeParse(1.005).success).toBe(false);
    expect(euros.safeParse(0.001).success).toBe(false);
    expect(euros.safeParse(-1).success).toBe(false);
    expect(euros.safeParse("5").success).toBe(false);
    expect(euros.parse(0.29)).toBe(0.29);
  });

  test("the text schema (query, path) reads the decimal itself: no tolerance, no exponent, sign or spaces", () => {
    const s = eurosTextUpTo(1_000_000);
    for (const t of ["5", "5.", ".5", "0.29", "12.50", "12.500", "1.10"]) expect(s.safeParse(t).success, t).toBe(true);
    expect(s.parse("12.500")).toBe(12.5);
    for (const t of ["0.005", "0.001", "1.005", "1.0000001", "", " 5", "+5", "-5", "1e2", "0x10", "Infinity", "1,5", "1000000.01"])
      expect(s.safeParse(t).success, t).toBe(false);
  });
});

test("an amount typed on a tablet: comma or point, whole cents only (1.005 is refused, not rounded)", () => {
  expect(typedCents("12,50")).toBe(1250);
  expect(typedCents(" 12.5 ")).toBe(1250);
  expect(typedCents("0.29")).toBe(29);
  expect(typedCents("7")).toBe(700);
  expect(typedCents("1.100")).toBe(110);
  for (const t of ["", "1.005", "0.001", "abc", "1e2", "-1", "1.2.3"]) expect(typedCents(t), t).toBeNaN();
});

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
