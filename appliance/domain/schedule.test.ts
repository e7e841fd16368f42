import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { addDays } from "./dates";
import {
  capacityLeft,
  dayFits,
  dayOfWeek,
  dayStartUtc,
  formatAmounts,
  loadColour,
  localityCapacities,
  monthOf,
  parseAmounts,
  parseLocalityIds,
  proposeDate,
  seasonApplies,
  stepWeek,
  weekDates,
  weekOf,
  weekStart,
  weeksInYear,
} from "./schedule";

/** Any day from 2000 to 2100. */
const anyDay = fc.integer({ min: 0, max: 36890 }).map((n) => addDays("2000-01-01", n));

describe("season matching (spec §4: month-day; an end not after the start always applies)", () => {
  test("a range applies inclusively between its ends, in any year", () => {
    const summer = { from: "06-01", to: "09-30" };
    expect(seasonApplies(summer, "2026-06-01")).toBe(true);
    expect(seasonApplies(summer, "2026-09-30")).toBe(true);
    expect(seasonApplies(summer, "2031-07-15")).toBe(true);
    expect(seasonApplies(summer, "2026-05-31")).toBe(false);
    expect(seasonApplies(summer, "2026-10-01")).toBe(false);
  });
  test("29 February matches a range holding it in leap years", () => {
    expect(seasonApplies({ from: "02-01", to: "02-29" }, "2028-02-29")).toBe(true);
    expect(seasonApplies({ from: "02-29", to: "03-31" }, "2027-02-28")).toBe(false);
    expect(seasonApplies({ from: "02-29", to: "03-31" }, "2027-03-01")).toBe(true);
  });
  test("a range that wraps the new year, equal ends or missing ends always apply", () => {
    fc.assert(
      fc.property(anyDay, (d) => {
        expect(seasonApplies({ from: "12-01", to: "02-28" }, d)).toBe(true);
        expect(seasonApplies({ from: "05-05", to: "05-05" }, d)).toBe(true);
        expect(seasonApplies({}, d)).toBe(true);
        expect(seasonApplies({ from: "06-01", to: null }, d)).toBe(true);
      }),
    );
  });
  test("a real range applies exactly when the month-day lies between its ends", () => {
    fc.assert(
      fc.property(anyDay, anyDay, anyDay, (a, b, d) => {
        const [from, to] = [a.slice(5), b.slice(5)].sort() as [string, string];
        fc.pre(to > from);
        expect(seasonApplies({ from, to }, d)).toBe(from <= d.slice(5) && d.slice(5) <= to);
      }),
    );
  });
});

describe("locality capacity", () => {
  const monday = "2026-07-06"; // a Monday in summer
  const winterMonday = "2026-01-05";
  const settings = [
    { season: "OFFSEASON", day_of_week: 1, quantity: 5, locality_ids: [1, 2] },
    { season: "PEAK", from: "06-01", to: "09-30", day_of_week: 1, quantity: 12, locality_ids: [1] },
    { season: "OFFSEASON", day_of_week: 2, quantity: 3, locality_ids: [1] },
  ];
  test("each listed locality takes the quantity on the weekday; a dated season replaces the undated entries of its localities", () => {
    expect(dayOfWeek(monday)).toBe(1);
    expect(Object.fromEntries(localityCapacities(settings, monday))).toEqual({ 1: 12, 2: 5 });
    expect(Object.fromEntries(localityCapacities(settings, winterMonday))).toEqual({ 1: 5, 2: 5 });
    expect(Object.fromEntries(localityCapacities(settings, addDays(monday, 1)))).toEqual({ 1: 3 });
    expect(localityCapacities(settings, addDays(monday, 2)).size).toBe(0);
  });
  test("entries of the same kind add up; a locality listed twice in one entry counts once", () => {
    expect(localityCapacities([...settings, { day_of_week: 1, quantity: 2, locality_ids: [2, 2] }], monday).get(2)).toBe(7);
  });
});

describe("weeks (Sunday..Saturday; week 1 holds 1 January)", () => {
  test("known weeks map to their days", () => {
    expect(weekDates(2026, 1)).toEqual(["2025-12-28", "2025-12-29", "2025-12-30", "2025-12-31", "2026-01-01", "2026-01-02", "2026-01-03"]);
    expect(weekStart(2026, 48)).toBe("2026-11-22");
    expect(weekDates(2024, 9)[4]).toBe("2024-02-29"); // leap day
    expect(weekStart(2022, 53)).toBe("2022-12-25"); // 2022 began on a Saturday: 53 weeks
    expect([2022, 2023, 2024, 2025, 2026, 2028, 2033].map(weeksInYear)).toEqual([53, 52, 52, 52, 52, 53, 53]);
  });
  test("every day lies in exactly one week, which lists it at its weekday, numbered 1..weeksInYear", () => {
    fc.assert(
      fc.property(anyDay, (d) => {
        const { year, week } = weekOf(d);
        expect(week).toBeGreaterThanOrEqual(1);
        expect(week).toBeLessThanOrEqual(weeksInYear(year));
        expect(weeksInYear(year) === 52 || weeksInYear(year) === 53).toBe(true);
        expect(weekDates(year, week)[dayOfWeek(d)]).toBe(d);
      }),
      { numRuns: 2000 },
    );
  });
  test("the last days of December fall in week 1 of the next year when that week holds 1 January", () => {
    expect(weekOf("2025-12-31")).toEqual({ year: 2026, week: 1 });
    expect(weekOf("2022-12-31")).toEqual({ year: 2022, week: 53 });
    expect(weekOf("2023-01-01")).toEqual({ year: 2023, week: 1 });
  });
  test("stepping: past the last week to week 1 of the next year, before week 1 to the last of the previous", () => {
    expect(stepWeek(2026, 52, 1)).toEqual({ year: 2027, week: 1 });
    expect(stepWeek(2022, 52, 1)).toEqual({ year: 2022, week: 53 });
    expect(stepWeek(2022, 53, 1)).toEqual({ year: 2023, week: 1 });
    expect(stepWeek(2026, 1, -1)).toEqual({ year: 2025, week: 52 });
    expect(stepWeek(2023, 1, -1)).toEqual({ year: 2022, week: 53 });
  });
  test("stepping forward then back returns, and every step moves exactly seven days (no week skipped or repeated)", () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: -120, max: 120 }), (d, n) => {
        const w = weekOf(d);
        const there = stepWeek(w.year, w.week, n);
        expect(stepWeek(there.year, there.week, -n)).toEqual(w);
        expect(weekStart(there.year, there.week)).toBe(addDays(weekStart(w.year, w.week), 7 * n));
      }),
    );
  });
});

describe("Malta days as UTC instants", () => {
  test("winter days start at 23:00Z, summer days at 22:00Z", () => {
    expect(dayStartUtc("2026-01-10")).toBe("2026-01-09T23:00:00.000Z");
    expect(dayStartUtc("2026-07-10")).toBe("2026-07-09T22:00:00.000Z");
  });
  test("the DST weeks: the spring day is 23 hours, the autumn day 25, and no hour is lost between days", () => {
    // 2026: clocks go forward on Sunday 29 March, back on Sunday 25 October.
    const len = (d: string) => (Date.parse(dayStartUtc(addDays(d, 1))) - Date.parse(dayStartUtc(d))) / 3_600_000;
    expect(len("2026-03-29")).toBe(23);
    expect(len("2026-10-25")).toBe(25);
    expect(weekDates(2026, 14)).toContain("2026-03-29");
    const week = weekDates(2026, 14);
    expect(week.reduce((h, d) => h + len(d), 0)).toBe(167);
  });
  test("every day is 23 to 25 hours and starts at a Malta midnight", () => {
    fc.assert(
      fc.property(anyDay, (d) => {
        const start = new Date(dayStartUtc(d));
        const wall = new Intl.DateTimeFormat("en-GB", {
          timeZone: "Europe/Malta",
          hourCycle: "h23",
          hour: "2-digit",
          minute: "2-digit",
          day: "2-digit",
        }).format(start);
        expect(wall).toBe(`${d.slice(8)}, 00:00`);
        const h = (Date.parse(dayStartUtc(addDays(d, 1))) - start.getTime()) / 3_600_000;
        expect([23, 24, 25]).toContain(h);
      }),
      { numRuns: 500 },
    );
  });
});

describe("colours and capacity left (spec §9)", () => {
  test("green at or under half, orange above, red at or above capacity; no capacity is red", () => {
    expect(loadColour(0, 10)).toBe("green");
    expect(loadColour(5, 10)).toBe("green");
    expect(loadColour(6, 10)).toBe("orange");
    expect(loadColour(9, 10)).toBe("orange");
    expect(loadColour(10, 10)).toBe("red");
    expect(loadColour(14, 10)).toBe("red");
    expect(loadColour(1, 3)).toBe("green");
    expect(loadColour(2, 3)).toBe("orange");
    expect(loadColour(0, 0)).toBe("red");
  });
  test("the colour follows the three rules for any counts", () => {
    fc.assert(
      fc.property(fc.nat(1000), fc.integer({ min: 1, max: 1000 }), (a, c) => {
        const colour = loadColour(a, c);
        expect(colour).toBe(a >= c ? "red" : a <= c / 2 ? "green" : "orange");
        expect(capacityLeft(c, a)).toBe(Math.max(0, c - a));
      }),
    );
  });
});

describe("the date proposal", () => {
  const days = (rooms: [number, (number | null)[]][]) => rooms.map(([left, plantLeft], i) => ({ date: addDays("2026-12-28", i), left, plantLeft }));
  test("the first day at or after the default date with a stop left and plant capacity for every action", () => {
    const d = days([
      [3, [5]],
      [0, [5]], // van full
      [2, [0, 4]], // plant full for the first action
      [1, [null, 2]], // no configuration: no limit
      [4, [1]],
    ]);
    expect(proposeDate(d, "2026-12-28")).toBe("2026-12-28");
    expect(proposeDate(d, "2026-12-29")).toBe("2026-12-31");
    expect(proposeDate(d, "2027-01-01")).toBe("2027-01-01");
    expect(proposeDate(d, "2027-01-02")).toBeNull();
    expect(dayFits(d[1]!)).toBe(false);
  });
  test("the proposal fits, is not before the default, and no fitting day lies between them", () => {
    const room = fc.record({ left: fc.nat(3), plantLeft: fc.array(fc.option(fc.nat(2)), { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(room, { maxLength: 40 }), fc.nat(45), (rs, startAt) => {
        const d = rs.map((r, i) => ({ ...r, date: addDays("2028-02-20", i) }));
        const start = addDays("2028-02-20", startAt);
        const p = proposeDate(d, start);
        const fitting = d.filter((x) => x.date >= start && dayFits(x));
        expect(p).toBe(fitting[0]?.date ?? null);
      }),
    );
  });
});

describe("stored forms", () => {
  test("amounts: seven numbers Sunday..Saturday, bad or negative ones read 0", () => {
    expect(parseAmounts("1,2,3,4,5,6,7")).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(parseAmounts("1,-2,x")).toEqual([1, 0, 0, 0, 0, 0, 0]);
    expect(formatAmounts([0, 1, 2, 3, 4, 5, 6])).toBe("0,1,2,3,4,5,6");
  });
  test("locality ids read ';' and ','", () => {
    expect(parseLocalityIds("1;2, 3;;x")).toEqual([1, 2, 3]);
  });
  test("months are the upper-case English names", () => {
    expect(monthOf("2026-02-28")).toBe("FEBRUARY");
    expect(monthOf("2026-12-01")).toBe("DECEMBER");
  });
});
