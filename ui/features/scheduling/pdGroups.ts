import type { SeasonName } from "../../../appliance/domain/schedule";
import type { PickupDelivery, PickupDeliveryInput } from "./api";

/**
 * One row of the pickup/delivery table (issue 25): a season for a set of localities, with a
 * quantity per weekday ("" when that weekday has no setting). The API keeps one setting per
 * weekday; the screen shows them as seasons × weekdays, grouped by what they share.
 */
export interface SeasonRow {
  /** Local key only: saving replaces every setting, so stored ids do not survive. */
  key: number;
  season: SeasonName;
  /** Month-day MM-DD, or "". */
  from: string;
  to: string;
  localities: number[];
  /** Index 0 Sunday .. 6 Saturday, as the API's day_of_week. */
  quantities: string[];
}

let nextKey = 1;
export const newKey = () => nextKey++;
export const emptyWeek = () => Array<string>(7).fill("");

/** Settings grouped into rows by season, dates and localities; a weekday given twice opens a second row. */
export function groupSettings(list: PickupDelivery[]): SeasonRow[] {
  const rows: (SeasonRow & { id: string })[] = [];
  for (const p of list) {
    const localities = [...p.locality_ids].sort((a, b) => a - b);
    const id = [p.season, p.from ?? "", p.to ?? "", localities.join(";")].join("|");
    let row = rows.find((r) => r.id === id && r.quantities[p.day_of_week] === "");
    if (!row) {
      row = { id, key: newKey(), season: p.season, from: p.from ?? "", to: p.to ?? "", localities, quantities: emptyWeek() };
      rows.push(row);
    }
    row.quantities[p.day_of_week] = String(p.quantity);
  }
  return rows.map(({ id: _, ...r }) => r);
}

/** The rows back to the API's list: one setting per weekday that has a quantity. */
export function expandRows(rows: SeasonRow[]): PickupDeliveryInput[] {
  return rows.flatMap((r) =>
    r.quantities.flatMap((q, day) =>
      q === "" ? [] : [{ season: r.season, from: r.from || null, to: r.to || null, day_of_week: day, quantity: Number(q), localities: r.localities }],
    ),
  );
}

const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
/**
 * A season's month-day as a date of `year` for the date field (DD/MM/YYYY): the year is not
 * kept, the season comes back every year. 29 February takes the next leap year.
 */
export function monthDayToDay(md: string, year: number): string {
  if (!md) return "";
  let y = year;
  if (md === "02-29") while (!leap(y)) y++;
  return `${y}-${md}`;
}
export const dayToMonthDay = (day: string) => (day ? day.slice(5) : "");
