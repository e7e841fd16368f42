import { expect, test } from "bun:test";
import { parseDiscount } from "../../appliance/domain/money";
import { Discount } from "../../appliance/domain/schemas";
import { discountValue } from "./form";

test("the catalogue screens read a discount as the API schema and the engine do (issue 23)", () => {
  for (const [text, percent] of [
    ["12.5", 13],
    ["-5", 0],
    ["PERCENTAGE 12.5", 13],
    ["15 %", 15],
    ["PERCENTAGE 150", 100],
    ["FLAT 5", 0],
  ] as const) {
    expect(parseDiscount(text)).toBe(percent);
    expect(discountValue(text)).toBe(percent);
    expect(Discount.parse(text)).toBe(`PERCENTAGE ${percent}`);
  }
});
