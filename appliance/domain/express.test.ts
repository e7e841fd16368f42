import { expect, test } from "bun:test";
import { expressDeliveryDate, expressOffset } from "./express";

test("express labels map to day offsets; others to -1", () => {
  expect(["Same Day", "Next Day", "Third Day", "Fourth Day", "Fifth Day", "Sixth Day", "Seventh Day"].map(expressOffset)).toEqual([0, 1, 2, 3, 4, 5, -1]);
});

test("express delivery date is confirmation plus the offset, across month ends", () => {
  expect(expressDeliveryDate("2026-11-29T16:00:00.000Z", "Next Day")).toBe("2026-11-30");
  expect(expressDeliveryDate("2026-11-29T16:00:00.000Z", "Third Day")).toBe("2026-12-01");
  expect(expressDeliveryDate("2026-12-31T09:00:00.000Z", "Sixth Day")).toBe("2027-01-05");
  expect(expressDeliveryDate(null, "Same Day")).toBeNull();
  expect(expressDeliveryDate("2026-11-29T16:00:00.000Z", "Whenever")).toBeNull();
});

import { addDays, businessDay } from "./dates";
test("business day is Malta's, across midnight and DST", () => {
  expect(businessDay(new Date("2026-11-22T23:30:00Z"))).toBe("2026-11-23"); // 00:30 in Malta (CET)
  expect(businessDay(new Date("2026-07-01T21:59:00Z"))).toBe("2026-07-01"); // 23:59 CEST
  expect(addDays("2026-12-28", 7)).toBe("2027-01-04");
  expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
});
