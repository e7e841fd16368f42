/**
 * Money and date formatting of spec §9, shared by the UI, receipts and PDFs.
 * Money is integer cents in, euro out in Maltese format ("€1,234.50"). Days are
 * "YYYY-MM-DD" (API and filters); display is DD/MM/YYYY; print and file names DD-MM-YYYY;
 * times are 24-hour. All in the shop's zone (dates.ts), never the tablet's language or zone:
 * no screen calls toLocale*String or a native date field (README, "Dates and times").
 */
import { businessDay, zoned } from "./dates";

const EUR = new Intl.NumberFormat("en-MT", { style: "currency", currency: "EUR" });

export const euro = (cents: number) => EUR.format((Number.isFinite(cents) ? cents : 0) / 100);
/** For amounts the API already gives in euros. */
export const euroFromEuros = (eur: number) => EUR.format(Number.isFinite(eur) ? eur : 0);

/** A UTC instant ("…T23:10:00Z" or with an offset) counts on its Malta business day. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:?\d{2})$/;
const parts = (value: string | null | undefined) => {
  const day = value && INSTANT.test(value) && !Number.isNaN(Date.parse(value)) ? businessDay(new Date(value)) : value;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day ?? "");
  return m ? { y: m[1]!, m: m[2]!, d: m[3]! } : null;
};
/** DD/MM/YYYY, or "N/A" when there is no date. */
export const displayDate = (day: string | null | undefined) => {
  const p = parts(day);
  return p ? `${p.d}/${p.m}/${p.y}` : "N/A";
};
/** DD-MM-YYYY (printouts and download file names). */
export const printDate = (day: string | null | undefined) => {
  const p = parts(day);
  return p ? `${p.d}-${p.m}-${p.y}` : "";
};
/** "YYYY-MM-DD" from a DD/MM/YYYY entry, or null when it is not a real date. */
export function parseDisplayDate(text: string): string | null {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(text);
  if (!m) return null;
  const day = `${m[3]}-${m[2]!.padStart(2, "0")}-${m[1]!.padStart(2, "0")}`;
  const d = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === day ? day : null;
}

/** The API's "YYYY-MM-DD" for an instant: its business day in Malta, not in UTC. */
export const apiDate = (at: Date) => businessDay(at);

/** DD/MM/YYYY HH:mm in the shop's zone, for log rows stored as UTC instants. */
const DT = { day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" } as const;
const valid = (at: string | Date | null | undefined) => {
  const d = at == null ? null : at instanceof Date ? at : new Date(at);
  return d && !Number.isNaN(d.getTime()) ? d : null;
};
export function displayDateTime(iso: string | Date | null | undefined): string {
  const d = valid(iso);
  return d ? zoned("en-GB", DT).format(d).replace(",", "") : "N/A";
}
/** HH:mm (or HH:mm:ss) in the shop's zone, 24-hour. */
export function displayTime(at: string | Date | null | undefined, seconds = false): string {
  const d = valid(at);
  if (!d) return "N/A";
  return zoned("en-GB", { hour: "2-digit", minute: "2-digit", ...(seconds ? { second: "2-digit" } : {}), hourCycle: "h23" }).format(d);
}
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;
/** "Thu 03/12" for a "YYYY-MM-DD" day (strips, the counter's reasons). */
export function shortDay(day: string): string {
  const p = parts(day);
  if (!p) return "N/A";
  return `${WEEKDAYS[new Date(`${p.y}-${p.m}-${p.d}T12:00:00Z`).getUTCDay()]} ${p.d}/${p.m}`;
}
