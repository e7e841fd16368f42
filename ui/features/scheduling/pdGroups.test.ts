import { expect, test } from "bun:test";
import type { PickupDelivery } from "./api";
import { dayToMonthDay, expandRows, groupSettings, monthDayToDay } from "./pdGroups";

const setting = (p: Partial<PickupDelivery>): PickupDelivery => ({
  id: 1,
  season: "PEAK",
  from: null,
  to: null,
  day_of_week: 1,
  quantity: 5,
  localities: "",
  locality_ids: [1],
  ...p,
});

test("settings sharing season, dates and localities make one row of weekdays, and expand back", () => {
  const list = [
    setting({ day_of_week: 1, quantity: 12, from: "06-01", to: "09-30", locality_ids: [2, 1] }),
    setting({ day_of_week: 3, quantity: 8, from: "06-01", to: "09-30", locality_ids: [1, 2] }),
    setting({ season: "OFFSEASON", day_of_week: 2, quantity: 0, locality_ids: [1] }),
  ];
  const rows = groupSettings(list);
  expect(rows).toHaveLength(2);
  expect(rows[0]).toMatchObject({ season: "PEAK", from: "06-01", to: "09-30", localities: [1, 2], quantities: ["", "12", "", "8", "", "", ""] });
  expect(rows[1]).toMatchObject({ season: "OFFSEASON", quantities: ["", "", "0", "", "", "", ""] });
  expect(expandRows(rows)).toEqual([
    { season: "PEAK", from: "06-01", to: "09-30", day_of_week: 1, quantity: 12, localities: [1, 2] },
    { season: "PEAK", from: "06-01", to: "09-30", day_of_week: 3, quantity: 8, localities: [1, 2] },
    { season: "OFFSEASON", from: null, to: null, day_of_week: 2, quantity: 0, localities: [1] },
  ]);
});

test("a weekday given twice for the same group opens a second row, so nothing is lost", () => {
  const rows = groupSettings([setting({ quantity: 3 }), setting({ quantity: 4 })]);
  expect(rows.map((r) => r.quantities[1])).toEqual(["3", "4"]);
  expect(expandRows(rows)).toHaveLength(2);
});

test("a season's month-day shows as a date of the year and comes back as month-day", () => {
  expect(monthDayToDay("06-01", 2026)).toBe("2026-06-01");
  expect(monthDayToDay("02-29", 2026)).toBe("2028-02-29");
  expect(monthDayToDay("", 2026)).toBe("");
  expect(dayToMonthDay("2026-09-30")).toBe("09-30");
  expect(dayToMonthDay("")).toBe("");
});
