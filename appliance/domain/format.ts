/**
 * Money and date formatting of spec §9, shared by the UI, receipts and PDFs.
 * Money is integer cents in, euro out in Maltese format ("€1,234.50"). Days are
 * "YYYY-MM-DD" (API and filters); display is DD/MM/YYYY; print and file names DD-MM-YYYY.
 */
const EUR = new Intl.NumberFormat("en-MT", { style: "currency", currency: "EUR" });

export const euro = (cents: number) => EUR.format((Number.isFinite(cents) ? cents : 0) / 100);
/** For amounts the API already gives in euros. */
export const euroFromEuros = (eur: number) => EUR.format(Number.isFinite(eur) ? eur : 0);

const parts = (day: string | null | undefined) => {
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
