import { describe, expect, test } from "bun:test";
import { setShopTimeZone, shopTimeZone } from "./dates";
import { apiDate, displayDate, displayDateTime, displayTime, euro, euroFromEuros, parseDisplayDate, printDate, shortDay } from "./format";

describe("money", () => {
  test("euro in Maltese format from integer cents", () => {
    expect(euro(123450)).toBe("€1,234.50");
    expect(euro(0)).toBe("€0.00");
    expect(euro(5)).toBe("€0.05");
    expect(euro(100)).toBe("€1.00");
    expect(euro(123456789)).toBe("€1,234,567.89");
    expect(euro(-250)).toBe("-€2.50");
  });
  test("a missing amount shows as zero rather than NaN", () => {
    expect(euro(Number.NaN)).toBe("€0.00");
    expect(euro(Number.POSITIVE_INFINITY)).toBe("€0.00");
  });
  test("amounts the API gives in euros", () => {
    expect(euroFromEuros(12.5)).toBe("€12.50");
    expect(euroFromEuros(1234.5)).toBe("€1,234.50");
    expect(euroFromEuros(0.1 + 0.2)).toBe("€0.30");
  });
});

describe("dates", () => {
  test("display DD/MM/YYYY from an API day, or from an instant on its Malta day", () => {
    expect(displayDate("2026-11-22")).toBe("22/11/2026");
    expect(displayDate("2026-11-22T10:10:00.000Z")).toBe("22/11/2026");
    // 23:10 UTC is 00:10 the next morning in Malta.
    expect(displayDate("2026-11-22T23:10:00.000Z")).toBe("23/11/2026");
    expect(printDate("2026-11-22T23:10:00Z")).toBe("23-11-2026");
    expect(displayDate("2026-11-22T23:10:00")).toBe("22/11/2026");
    expect(displayDate(null)).toBe("N/A");
    expect(displayDate("")).toBe("N/A");
    expect(displayDate("22/11/2026")).toBe("N/A");
  });
  test("print and file names DD-MM-YYYY", () => {
    expect(printDate("2026-01-05")).toBe("05-01-2026");
    expect(printDate(undefined)).toBe("");
  });
  test("parse DD/MM/YYYY entries into the API form, only real dates", () => {
    expect(parseDisplayDate("5/1/2026")).toBe("2026-01-05");
    expect(parseDisplayDate(" 29/02/2028 ")).toBe("2028-02-29");
    expect(parseDisplayDate("29/02/2026")).toBeNull();
    expect(parseDisplayDate("30/02/2026")).toBeNull();
    expect(parseDisplayDate("2026-01-05")).toBeNull();
    expect(parseDisplayDate("")).toBeNull();
  });
  test("the API day of an instant is Malta's business day", () => {
    // Winter (CET, UTC+1): 23:30 UTC is already the next day in Malta.
    expect(apiDate(new Date("2026-01-31T23:30:00Z"))).toBe("2026-02-01");
    expect(apiDate(new Date("2026-01-31T22:59:00Z"))).toBe("2026-01-31");
    // Summer (CEST, UTC+2): 22:30 UTC is the next day; 21:59 UTC is not.
    expect(apiDate(new Date("2026-07-01T22:30:00Z"))).toBe("2026-07-02");
    expect(apiDate(new Date("2026-07-01T21:59:00Z"))).toBe("2026-07-01");
    // The night the clocks go forward (29 March 2026, 01:00 UTC).
    expect(apiDate(new Date("2026-03-28T23:00:00Z"))).toBe("2026-03-29");
    expect(apiDate(new Date("2026-12-31T23:00:00Z"))).toBe("2027-01-01");
  });
  test("date and time of a logged instant, in Malta time", () => {
    expect(displayDateTime("2026-07-01T22:30:00.000Z")).toBe("02/07/2026 00:30");
    expect(displayDateTime("2026-01-15T09:05:00Z")).toBe("15/01/2026 10:05");
    expect(displayDateTime(null)).toBe("N/A");
    expect(displayDateTime("not a date")).toBe("N/A");
  });
});

describe("times and the shop's zone", () => {
  test("times are 24-hour in the shop's zone, whatever the runtime's locale", () => {
    // 16:30:36 UTC in November is 17:30:36 in Malta.
    expect(displayTime("2026-11-22T16:30:36Z")).toBe("17:30");
    expect(displayTime(new Date("2026-11-22T16:30:36Z"), true)).toBe("17:30:36");
    expect(displayTime("not a time")).toBe("N/A");
    expect(displayDateTime("2026-11-22T23:10:00Z")).toBe("23/11/2026 00:10");
  });
  test("a short day names its weekday: the counter's reasons", () => {
    expect(shortDay("2026-12-03")).toBe("Thu 03/12");
  });
  test("another zone moves days and times; an unknown zone is refused and changes nothing", () => {
    expect(setShopTimeZone("Not/AZone")).toBe(false);
    expect(shopTimeZone()).toBe("Europe/Malta");
    try {
      expect(setShopTimeZone("America/New_York")).toBe(true);
      expect(displayTime("2026-11-22T16:30:36Z")).toBe("11:30");
      expect(displayDate("2026-11-23T03:00:00Z")).toBe("22/11/2026");
    } finally {
      setShopTimeZone("Europe/Malta");
    }
    expect(displayDate("2026-11-23T03:00:00Z")).toBe("23/11/2026");
  });
});
