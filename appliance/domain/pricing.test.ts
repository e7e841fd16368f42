import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { clampPercent, formatDiscount, parseDiscount } from "./money";
import {
  type PriceRecord,
  type PricedAction,
  actionPrice,
  actionReferenceError,
  actionTableError,
  effectivePrice,
  itemTotals,
  MAX_LINE_CENTS,
  MAX_TICKET_CENTS,
  modifierUpChargeError,
  priceReferenceError,
  priceTableError,
  roundCents,
  ticketOverCap,
  ticketTotal,
  vatSplit,
} from "./pricing";

const map = <T extends { id: number }>(xs: T[]) => new Map(xs.map((x) => [x.id, x]));
const noDiscounts = { item: 0, garment: 0, customer: 0, ticket: 0 };

describe("actions", () => {
  test("flat and percentage-of prices, chains and failures", () => {
    const actions = map<PricedAction>([
      { id: 1, is_percentage_of: null, up_charge: 800 }, // Pressing €8.00
      { id: 2, is_percentage_of: 1, up_charge: 15000 }, // Express Pressing 150 % → €12.00
      { id: 3, is_percentage_of: 2, up_charge: 5000 }, // 50 % of that → €6.00
      { id: 4, is_percentage_of: 99, up_charge: 5000 }, // missing reference → 0
      { id: 5, is_percentage_of: 6, up_charge: 10000 },
      { id: 6, is_percentage_of: 5, up_charge: 10000 }, // cycle → 0
    ]);
    expect(actionPrice(1, actions)).toBe(800);
    expect(actionPrice(2, actions)).toBe(1200);
    expect(actionPrice(3, actions)).toBe(600);
    expect(actionPrice(4, actions)).toBe(0);
    expect(actionPrice(5, actions)).toBe(0);
    expect(actionPrice(77, actions)).toBe(0);
    expect(actionReferenceError(6, 5, actions)).toContain("cycle");
    expect(actionReferenceError(2, 1, actions)).toBeNull();
    expect(actionReferenceError(1, 1, actions)).toContain("itself");
  });

  test("property: chains of any depth resolve to base × Π percents (each step within a line's cap), finite and never negative", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.array(fc.integer({ min: 0, max: 30_000 }), { maxLength: 40 }), (base, pcts) => {
        const actions: PricedAction[] = [{ id: 1, is_percentage_of: null, up_charge: base }];
        pcts.forEach((p, i) => actions.push({ id: i + 2, is_percentage_of: i + 1, up_charge: p }));
        const got = actionPrice(actions.length, map(actions));
        const expected = roundCents(pcts.reduce((v, p) => Math.min(MAX_LINE_CENTS, v * (Math.min(p, 100_000) / 10_000)), base));
        expect(got).toBe(expected);
        expect(Number.isInteger(got) && got >= 0).toBe(true);
      }),
    );
  });

  test("property: any graph of references (cycles included) terminates with an integer ≥ 0", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ ref: fc.option(fc.integer({ min: 1, max: 12 })), up: fc.integer({ min: -500, max: 50_000 }) }), { minLength: 1, maxLength: 12 }),
        (specs) => {
          const actions = map(specs.map((s, i) => ({ id: i + 1, is_percentage_of: s.ref, up_charge: s.up })));
          for (const id of actions.keys()) {
            const p = actionPrice(id, actions);
            expect(Number.isInteger(p) && p >= 0).toBe(true);
          }
        },
      ),
    );
  });
});

describe("prices per garment", () => {
  const records = map<PriceRecord>([
    { id: 10, garment_sub_category_id: 1, action_id: 1, price: 1000, is_percentage_of: null }, // Dry Cleaning €10
    { id: 11, garment_sub_category_id: 1, action_id: 2, price: 6000, is_percentage_of: 10 }, // Pressing 60 % → €6
    { id: 12, garment_sub_category_id: 2, action_id: 2, price: 5000, is_percentage_of: 10 }, // other garment → 0
    { id: 13, garment_sub_category_id: 1, action_id: 3, price: 3333, is_percentage_of: 10 }, // 33.33 % → €3.333 → 333
  ]);
  test("percent of another record of the same garment; another garment is an error", () => {
    expect(effectivePrice(10, records)).toBe(1000);
    expect(effectivePrice(11, records)).toBe(600);
    expect(effectivePrice(12, records)).toBe(0);
    expect(effectivePrice(13, records)).toBe(333);
    expect(priceReferenceError(12, 10, 2, records)).toContain("same garment");
    expect(priceReferenceError(10, 11, 1, records)).toContain("cycle");
    expect(priceReferenceError(14, 11, 1, records)).toBeNull();
    expect(priceReferenceError(14, 404, 1, records)).toContain("no such");
  });
});

describe("caps (L4)", () => {
  // 1000 % of 1000 % of … of €1,000,000: the fifth link alone is 10^5 × €1,000,000.
  const chain = (n: number) =>
    map<PriceRecord>(
      Array.from({ length: n }, (_, i) => ({
        id: i + 1,
        garment_sub_category_id: 1,
        action_id: i + 1,
        price: i ? 100_000 : MAX_LINE_CENTS,
        is_percentage_of: i ? i : null,
      })),
    );

  test("a chained percentage price that used to pass 2^53 cents is refused, and reads clamp to a line", () => {
    const records = chain(6);
    expect(priceTableError(records)).toBe("price: this percentage of a percentage would come to more than €1,000,000.00");
    for (const id of records.keys()) {
      const p = effectivePrice(id, records);
      expect(Number.isSafeInteger(p) && p <= MAX_LINE_CENTS).toBe(true);
    }
    // The same table without the chain passes; a flat price over €1M or a percentage over 1000 % does not.
    expect(priceTableError(chain(1))).toBeNull();
    expect(priceTableError(map<PriceRecord>([{ id: 1, garment_sub_category_id: 1, action_id: 1, price: MAX_LINE_CENTS + 1, is_percentage_of: null }]))).toBe(
      "price: at most €1,000,000.00",
    );
    expect(
      priceTableError(map<PriceRecord>([...chain(1).values(), { id: 2, garment_sub_category_id: 1, action_id: 2, price: 100_001, is_percentage_of: 1 }])),
    ).toBe("price: a percentage may be at most 1000 %");
    const actions = map<PricedAction>([
      { id: 1, is_percentage_of: null, up_charge: 10_000_000 },
      { id: 2, is_percentage_of: 1, up_charge: 100_000 },
      { id: 3, is_percentage_of: 2, up_charge: 100_000 },
    ]);
    expect(actionTableError(actions)).toContain("up_charge: this percentage of a percentage");
    expect(actionPrice(3, actions)).toBe(MAX_LINE_CENTS);
    expect(modifierUpChargeError(100_001, true)).toContain("1000 %");
    expect(modifierUpChargeError(100_001, false)).toBeNull();
  });

  test("an item beyond a line and a ticket beyond its cap are flagged for refusal and clamp when read", () => {
    const big = itemTotals({
      actions: [{ price: MAX_LINE_CENTS, quantity: 1000 }],
      quantity: 10_000,
      modifiers: [{ up_charge: 100_000, is_percentage: true }],
      discounts: noDiscounts,
    });
    expect(big).toEqual({ pre_discount_total: MAX_LINE_CENTS, total: MAX_LINE_CENTS, over_cap: true });
    expect(itemTotals({ actions: [{ price: MAX_LINE_CENTS, quantity: 1 }], quantity: 1, modifiers: [], discounts: noDiscounts }).over_cap).toBe(false);
    const lines = Array<number>(11).fill(MAX_LINE_CENTS);
    expect(ticketOverCap(lines, 0, 0)).toBe(true);
    expect(ticketTotal(lines, 0, 0)).toBe(MAX_TICKET_CENTS);
    expect(ticketOverCap(lines.slice(1), 0, 0)).toBe(false);
  });
});

describe("discounts", () => {
  test("PERCENTAGE n parses and clamps to 0..100", () => {
    expect(parseDiscount("PERCENTAGE 15")).toBe(15);
    expect(parseDiscount("PERCENTAGE 150")).toBe(100);
    expect(parseDiscount("PERCENTAGE -5")).toBe(0);
    expect(parseDiscount("percentage 7.5")).toBe(8);
    // One rule for every route: "PERCENTAGE 12.5" is 13 (the ticket route stored 12, the action route 13).
    expect(parseDiscount("PERCENTAGE 12.5")).toBe(13);
    expect(parseDiscount(12.5)).toBe(13);
    expect(parseDiscount("")).toBe(0);
    expect(parseDiscount(null)).toBe(0);
    expect(parseDiscount("FLAT 5")).toBe(0);
    expect(formatDiscount(120)).toBe("PERCENTAGE 100");
    expect(formatDiscount(-3)).toBe("PERCENTAGE 0");
    expect(clampPercent(Number.NaN)).toBe(0);
  });
});

describe("money to the cent", () => {
  test("a share of an amount is rounded once, half away from zero; sums are added in cents", async () => {
    const { percentOfCents, roundEuros, sumEuros } = await import("./money");
    expect(percentOfCents(1999, 10)).toBe(200);
    expect(percentOfCents(1005, 50)).toBe(503);
    expect(percentOfCents(0, 35)).toBe(0);
    expect(roundEuros(12.345)).toBe(12.35);
    expect(roundEuros(0.1 + 0.2)).toBe(0.3);
    expect(sumEuros([0.1, 0.2, 0.3])).toBe(0.6);
    expect(sumEuros([])).toBe(0);
  });
});

describe("items and tickets", () => {
  test("actions × quantities, flat and percentage modifiers, sequential discounts, override", () => {
    const t = itemTotals({
      actions: [
        { price: 1000, quantity: 1 },
        { price: 600, quantity: 1 },
      ],
      quantity: 2,
      modifiers: [
        { up_charge: 500, is_percentage: false },
        { up_charge: 5000, is_percentage: true },
      ],
      discounts: { item: 10, garment: 0, customer: 10, ticket: 0 },
    });
    // base 3200, + 500 + 1600 = 5300; × 0.9 × 0.9 = 4293
    expect(t).toEqual({ pre_discount_total: 5300, total: 4293, over_cap: false });
    expect(itemTotals({ actions: [{ price: 1000, quantity: 1 }], quantity: 1, modifiers: [], discounts: noDiscounts, total_override: 750 }).total).toBe(750);
    expect(itemTotals({ actions: [{ price: 1000, quantity: 1 }], quantity: 0, modifiers: [], discounts: noDiscounts }).total).toBe(1000);
    expect(itemTotals({ actions: [{ price: 1000, quantity: 1 }], quantity: 1, modifiers: [], discounts: { ...noDiscounts, ticket: 100 } }).total).toBe(0);
  });

  test("property: totals are integers, never negative or NaN, and discounts never raise a price", () => {
    const pct = fc.integer({ min: -50, max: 150 });
    fc.assert(
      fc.property(
        fc.array(fc.record({ price: fc.integer({ min: -100, max: 100_000 }), quantity: fc.integer({ min: 0, max: 20 }) }), { maxLength: 6 }),
        fc.integer({ min: -3, max: 50 }),
        fc.array(fc.record({ up_charge: fc.integer({ min: -100, max: 20_000 }), is_percentage: fc.boolean() }), { maxLength: 4 }),
        fc.record({ item: pct, garment: pct, customer: pct, ticket: pct }),
        (actions, quantity, modifiers, discounts) => {
          const t = itemTotals({ actions, quantity, modifiers, discounts });
          for (const v of [t.total, t.pre_discount_total]) expect(Number.isInteger(v) && v >= 0).toBe(true);
          expect(t.total).toBeLessThanOrEqual(t.pre_discount_total);
        },
      ),
    );
  });

  test("ticket total and the VAT split (18 % included)", () => {
    expect(ticketTotal([1000, 2050], 300, 500)).toBe(3850);
    expect(vatSplit(11800)).toEqual({ subtotal: 10000, vat: 1800, total: 11800 });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (total) => {
        const s = vatSplit(total);
        expect(s.subtotal + s.vat).toBe(total);
        expect(s.vat).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
