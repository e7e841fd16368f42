/**
 * Scheduling rules, pure (spec §4 Pickup season matching and Weeks, §9 colours, seasons,
 * weekdays, months): which pickup/delivery settings apply on a day, how weeks map to Malta
 * days, load colours, capacity left and the date proposal. Shared with the UI.
 */
import { addDays, zoned } from "./dates";

export const MONTHS = ["JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"] as const;
export type MonthName = (typeof MONTHS)[number];
/** Spec §9: the seven weekdays in English; index = day_of_week (0 Sunday). */
export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export const SEASONS = ["PEAK", "OFFSEASON"] as const;
export type SeasonName = (typeof SEASONS)[number];

const DAY_MS = 86_400_000;
const utcNoon = (day: string) => Date.parse(`${day}T12:00:00Z`);

/** 0 Sunday .. 6 Saturday of a "YYYY-MM-DD" day. */
export const dayOfWeek = (day: string) => new Date(utcNoon(day)).getUTCDay();
/** The upper-case month name of a day (spec §9), which picks its workload configuration. */
export const monthOf = (day: string): MonthName => MONTHS[Number(day.slice(5, 7)) - 1]!;
const daysBetween = (a: string, b: string) => Math.round((utcNoon(b) - utcNoon(a)) / DAY_MS);

// ---------------------------------------------------------------- seasons

export interface SeasonRange {
  from?: string | null;
  to?: string | null;
}

/** A real range: both ends given and the end after the start (month-day "MM-DD" compare as text). */
export const isDated = (s: SeasonRange) => !!s.from && !!s.to && s.to > s.from;

/**
 * Spec §4: seasons compare month-day; if the end is not after the start the entry always
 * applies. So a range that wraps the new year (12-01 to 02-28) applies all year, like an
 * entry without dates; the ends are inclusive.
 */
export function seasonApplies(s: SeasonRange, day: string): boolean {
  if (!isDated(s)) return true;
  const md = day.slice(5, 10);
  return s.from! <= md && md <= s.to!;
}

export interface CapacitySetting extends SeasonRange {
  day_of_week: number;
  quantity: number;
  locality_ids: readonly number[];
}

/**
 * Each locality's pickup/delivery capacity on a day. A setting gives each of its localities
 * `quantity` stops on its weekday. Where a dated setting (a real from..to range containing the
 * day) names a locality, it replaces the always-applying ones for that locality: PEAK
 * 06-01..09-30 overrides an undated OFFSEASON in summer. Chosen settings add up.
 */
export function localityCapacities(settings: readonly CapacitySetting[], day: string): Map<number, number> {
  const dow = dayOfWeek(day);
  const dated = new Map<number, number>();
  const always = new Map<number, number>();
  for (const s of settings) {
    if (s.day_of_week !== dow || !seasonApplies(s, day)) continue;
    const into = isDated(s) ? dated : always;
    for (const l of new Set(s.locality_ids)) into.set(l, (into.get(l) ?? 0) + s.quantity);
  }
  for (const [l, q] of dated) always.set(l, q);
  return always;
}

// ---------------------------------------------------------------- weeks

/**
 * Weeks run Sunday to Saturday (spec §3: day_of_week 0..6, amounts Sunday to Saturday). Week 1
 * of a year is the week holding 1 January; week n starts 7(n-1) days after it. A year has 52
 * weeks, or 53 when its last days do not reach a Saturday in the next year's week 1.
 */
export function weekStart(year: number, week: number): string {
  const jan1 = `${String(year).padStart(4, "0")}-01-01`;
  return addDays(jan1, -dayOfWeek(jan1) + 7 * (week - 1));
}

/** The seven Malta days (Sunday..Saturday) of a week. */
export function weekDates(year: number, week: number): string[] {
  const s = weekStart(year, week);
  return Array.from({ length: 7 }, (_, i) => addDays(s, i));
}

/** The week a day falls in: the year is that of the week's Saturday. */
export function weekOf(day: string): { year: number; week: number } {
  const sunday = addDays(day, -dayOfWeek(day));
  const year = Number(addDays(sunday, 6).slice(0, 4));
  return { year, week: daysBetween(weekStart(year, 1), sunday) / 7 + 1 };
}

export const weeksInYear = (year: number) => daysBetween(weekStart(year, 1), weekStart(year + 1, 1)) / 7;

/**
 * Spec §4 week stepping: past the year's last week goes to week 1 of the next year, before
 * week 1 to the last week of the previous year (52, or 53 in a 53-week year, so no week is
 * skipped or shown twice). Any week 1..53 in, a real week out.
 */
export function stepWeek(year: number, week: number, delta: number): { year: number; week: number } {
  return weekOf(addDays(weekStart(year, week), 7 * delta));
}

// ---------------------------------------------------------------- Malta days as instants

const wallFmt = () =>
  zoned("en-GB", {
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
/** Malta's offset from UTC at an instant, in ms (1 h in winter, 2 h in summer). */
function offsetAt(ms: number): number {
  const p = Object.fromEntries(
    wallFmt()
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!, +p.second!) - Math.floor(ms / 1000) * 1000;
}

/**
 * The UTC instant a Malta day starts, as an ISO string (stored times are UTC ISO strings, so
 * a day is the half-open range [dayStartUtc(d), dayStartUtc(d + 1))). Midnight never falls in
 * Malta's DST gap (02:00-03:00), so the day of a change is 23 or 25 hours long, no day lost.
 */
export function dayStartUtc(day: string): string {
  const wall = Date.parse(`${day}T00:00:00Z`);
  let t = wall - offsetAt(wall);
  t = wall - offsetAt(t);
  return new Date(t).toISOString();
}

// ---------------------------------------------------------------- load

export type Colour = "green" | "orange" | "red";

/**
 * Spec §9: green if assigned is at most half the capacity, red at or above it, orange
 * otherwise. A day without capacity is red whatever is assigned: nothing can be booked there
 * (the spec's two rules overlap only at 0 assigned of 0).
 */
export function loadColour(assigned: number, capacity: number): Colour {
  if (capacity <= 0 || assigned >= capacity) return "red";
  return assigned * 2 <= capacity ? "green" : "orange";
}

export const capacityLeft = (capacity: number, assigned: number) => Math.max(0, capacity - assigned);

/** One candidate day: stops left for the locality, and plant capacity left per action (null: no configuration, no limit). */
export interface DayRoom {
  date: string;
  left: number;
  plantLeft: readonly (number | null)[];
}

export const dayFits = (d: DayRoom) => d.left > 0 && d.plantLeft.every((l) => l === null || l > 0);

/**
 * The date proposal (beyond the spec): the first day at or after `start` with room for a stop
 * in the locality and plant capacity left for every action of the ticket. Looks only at the
 * days given (the caller bounds the search); null when none fits.
 */
export function proposeDate(days: readonly DayRoom[], start: string): string | null {
  for (const d of days) if (d.date >= start && dayFits(d)) return d.date;
  return null;
}

// ---------------------------------------------------------------- stored forms

/** Spec §3: seven comma-separated numbers, Sunday to Saturday; missing or bad ones read as 0. */
export function parseAmounts(text: string): number[] {
  const parts = text.split(",");
  return Array.from({ length: 7 }, (_, i) => {
    const n = Math.round(Number(parts[i]));
    return Number.isFinite(n) && n > 0 ? n : 0;
  });
}
export const formatAmounts = (amounts: readonly number[]) => amounts.join(",");

/** Stored locality ids: separated by ';' (spec §3; ',' also read). */
export function parseLocalityIds(text: string): number[] {
  return text
    .split(/[;,]/)
    .map((p) => Number(p.trim()))
    .filter((n) => Number.isInteger(n) && n > 0);
}
