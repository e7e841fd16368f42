import { expect, test } from "bun:test";
import { DEFAULT_QUIET_HOURS, quietUntil } from "./quietHours";

const at = (iso: string, q = DEFAULT_QUIET_HOURS, tz = "Europe/Malta") => quietUntil(new Date(iso), q, tz)?.toISOString() ?? null;

test("overnight quiet hours in Malta, winter (UTC+1) and summer (UTC+2): the morning's end, or null by day", () => {
  expect(at("2026-11-22T19:59:00Z")).toBeNull(); // 20:59
  expect(at("2026-11-22T20:00:00Z")).toBe("2026-11-23T07:00:00.000Z"); // 21:00 -> 08:00 next day
  expect(at("2026-11-22T23:30:00Z")).toBe("2026-11-23T07:00:00.000Z"); // 00:30 -> 08:00 the same day
  expect(at("2026-11-23T06:59:00Z")).toBe("2026-11-23T07:00:00.000Z");
  expect(at("2026-11-23T07:00:00Z")).toBeNull(); // 08:00
  expect(at("2026-07-01T19:30:00Z")).toBe("2026-07-02T06:00:00.000Z"); // 21:30 summer time
});

test("the night the clocks go back (25 October 2026) still ends at 08:00 local", () => {
  expect(at("2026-10-24T21:00:00Z")).toBe("2026-10-25T07:00:00.000Z"); // 23:00 CEST -> 08:00 CET
});

test("a window within one day, a disabled one, and one whose start is its end", () => {
  expect(at("2026-11-23T12:30:00Z", { enabled: true, start: "13:00", end: "14:00" })).toBe("2026-11-23T13:00:00.000Z"); // 13:30 -> 14:00
  expect(at("2026-11-23T13:00:00Z", { enabled: true, start: "13:00", end: "14:00" })).toBeNull();
  expect(at("2026-11-22T23:30:00Z", { ...DEFAULT_QUIET_HOURS, enabled: false })).toBeNull();
  expect(at("2026-11-22T23:30:00Z", { enabled: true, start: "08:00", end: "08:00" })).toBeNull();
});
