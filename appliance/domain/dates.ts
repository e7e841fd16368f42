/** Business days are Malta's (spec §9); storage is UTC. Pure helpers shared with the UI. */
export const BUSINESS_TZ = "Europe/Malta";

const dayFmt = new Intl.DateTimeFormat("en-CA", { timeZone: BUSINESS_TZ, year: "numeric", month: "2-digit", day: "2-digit" });

/** The Malta calendar day of an instant, "YYYY-MM-DD". */
export const businessDay = (d: Date) => dayFmt.format(d);

/** Adds whole days to a "YYYY-MM-DD" day. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
