/**
 * How report cells are written (spec §9): CSV text, and the typed values of an xlsx cell.
 * A row arrives as raw values by column type: text a string, int/percent a number, money
 * integer cents, date a Malta day "YYYY-MM-DD", datetime a UTC ISO instant.
 */
import { shopTimeZone, zoned } from "../../domain/dates";
import type { Cell } from "../../domain/reportRows";
import type { ColumnType } from "./model";

export type { Cell };

/**
 * Formula neutralising (OWASP "CSV injection"): a text cell that starts with = + - @, a tab
 * or a carriage return (or their full-width forms, which some spreadsheets also read) gets a
 * leading apostrophe, so a spreadsheet shows it as text and never runs it. Only text cells
 * are neutralised: money and counts are numbers the box formats itself, so a negative amount
 * ("-12.50") stays a number a spreadsheet can add up.
 */
const RISKY = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
export const neutralise = (s: string) => (RISKY.test(s) ? `'${s}` : s);

/**
 * RFC 4180: a field holding a quote, comma, CR or LF is quoted, quotes doubled. Written here
 * rather than through csv-stringify, which measured 170k rows/s for the item report's 16
 * columns on this machine, below the report's whole budget of 200k rows/s (this: 1.4M rows/s);
 * the tests parse the output back with csv-parse, for any text (property-tested).
 */
const NEEDS_QUOTES = /[",\r\n]/;
export const csvField = (s: string) => (NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/** Cents as "1234.50" / "-0.05": a point, two decimals, no grouping or currency sign. */
export function money(cents: number): string {
  const c = Math.round(cents);
  const abs = Math.abs(c);
  const frac = abs % 100;
  return `${c < 0 ? "-" : ""}${(abs - frac) / 100}.${frac < 10 ? "0" : ""}${frac}`;
}

/** "YYYY-MM-DD" → "DD-MM-YYYY". */
export const printDay = (day: string) => `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`;

// Malta's UTC offset changes only on the hour (01:00 UTC), so it is looked up once per UTC
// hour: Intl for every one of two million cells would be most of a report's time.
const offsetFmt = () => zoned("en-GB", { timeZoneName: "longOffset" });
const offsets = new Map<string, number>();
/** The zone the cached offsets are of: read at each cell, since "The box" may change it (issue 31). */
let offsetsZone = shopTimeZone();
/**
 * Hours remembered by the two caches below. Rows come in about time order (item ids), so a
 * few days' worth hit nearly always; a cache of every hour of a multi-year report held a
 * million strings and most of the report process's memory.
 */
const HOURS_KEPT = 2_000;
function offsetMs(iso: string): number {
  const hour = iso.slice(0, 13);
  if (offsetsZone !== shopTimeZone()) offsets.clear(), (offsetsZone = shopTimeZone());
  let off = offsets.get(hour);
  if (off === undefined) {
    const name =
      offsetFmt()
        .formatToParts(new Date(`${hour}:00:00Z`))
        .find((p) => p.type === "timeZoneName")?.value ?? "GMT";
    const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    off = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000 : 0;
    if (offsets.size > HOURS_KEPT) offsets.clear();
    offsets.set(hour, off);
  }
  return off;
}

/** Malta wall time of a UTC instant as "YYYY-MM-DDTHH:mm" (its first 10 characters are the business day). */
export function maltaWall(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  return new Date(t + offsetMs(new Date(t).toISOString())).toISOString().slice(0, 16);
}

/** The Malta day of a UTC instant (the same for the whole of a UTC hour: Malta's offset is whole hours). */
const days = new Map<string, string>();
export function maltaDay(iso: string): string {
  const hour = iso.slice(0, 13);
  let day = days.get(hour);
  if (day === undefined) {
    day = maltaWall(iso).slice(0, 10);
    if (days.size > HOURS_KEPT) days.clear();
    days.set(hour, day);
  }
  return day;
}

/** One cell as CSV text (already quoted where needed). */
export function csvCell(type: ColumnType, v: Cell): string {
  if (v === null || v === "") return "";
  switch (type) {
    case "money":
      return money(Number(v));
    case "int":
    case "percent":
      return String(v);
    case "date":
      return printDay(String(v));
    case "datetime": {
      const w = maltaWall(String(v));
      return w ? `${printDay(w)} ${w.slice(11, 16)}` : "";
    }
    default:
      return csvField(neutralise(String(v)));
  }
}

/** One record: fields separated by commas, ended by CRLF (RFC 4180). */
export function csvRecord(types: readonly ColumnType[], row: readonly Cell[]): string {
  let out = csvCell(types[0]!, row[0] ?? null);
  for (let i = 1; i < types.length; i++) out += `,${csvCell(types[i]!, row[i] ?? null)}`;
  return `${out}\r\n`;
}

/** An xlsx cell value: numbers as numbers (money in euros), days and times as dates, text neutralised. */
export function xlsxCell(type: ColumnType, v: Cell): string | number | Date | null {
  if (v === null || v === "") return null;
  switch (type) {
    case "money":
      return Math.round(Number(v)) / 100;
    case "int":
    case "percent":
      return Number(v);
    case "date":
      return new Date(`${String(v)}T00:00:00Z`);
    case "datetime": {
      // Spreadsheet dates have no zone: the Malta wall time is written as it reads.
      const w = maltaWall(String(v));
      return w ? new Date(`${w}:00Z`) : null;
    }
    default:
      return neutralise(String(v));
  }
}

/** Number formats of typed xlsx cells (spec §9: DD-MM-YYYY, two decimals). */
export const XLSX_FORMATS: Partial<Record<ColumnType, string>> = {
  money: "#,##0.00",
  date: "dd-mm-yyyy",
  datetime: "dd-mm-yyyy hh:mm",
};
