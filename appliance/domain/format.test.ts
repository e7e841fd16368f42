import { expect, test } from "bun:test";
import { displayDate, euro, euroFromEuros, parseDisplayDate, printDate } from "./format";

test("euro in Maltese format from cents", () => {
  expect(euro(123450)).toBe("€1,234.50");
  expect(euro(5)).toBe("€0.05");
  expect(euro(Number.NaN)).toBe("€0.00");
  expect(euroFromEuros(12.5)).toBe("€12.50");
});

test("dates: display DD/MM/YYYY, print DD-MM-YYYY, parse only real dates", () => {
  expect(displayDate("2026-11-22")).toBe("22/11/2026");
  expect(displayDate("2026-11-22T23:10:00.000Z")).toBe("22/11/2026");
  expect(displayDate(null)).toBe("N/A");
  expect(printDate("2026-01-05")).toBe("05-01-2026");
  expect(parseDisplayDate("5/1/2026")).toBe("2026-01-05");
  expect(parseDisplayDate("30/02/2026")).toBeNull();
  expect(parseDisplayDate("2026-01-05")).toBeNull();
});
