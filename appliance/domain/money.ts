/** Euro amounts in Maltese format (spec §9): integer cents in, "€1,234.50" out. */
const EUR = new Intl.NumberFormat("en-MT", { style: "currency", currency: "EUR" });
export const euro = (cents: number) => EUR.format((Number.isFinite(cents) ? cents : 0) / 100);

/** Dates as printed (spec §9): DD-MM-YYYY from "YYYY-MM-DD". */
export const printDate = (day: string) => `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`;
