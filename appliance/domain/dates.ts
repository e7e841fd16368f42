/**
 * Business days are the shop's (spec §9: Malta's by default); storage is UTC. Pure helpers
 * shared with the UI. The zone is a setting: IRONBOX_TIME_ZONE on the box (read once, so a
 * report worker started with the same environment agrees), and the UI takes the box's zone
 * from /health (setShopTimeZone), so a tablet in any language and zone shows the shop's days.
 */
export const DEFAULT_TZ = "Europe/Malta";

/** Whether the runtime knows an IANA zone name ("Europe/Malta"). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: tz });
    return tz.length > 0;
  } catch {
    return false;
  }
}

const envZone = typeof process !== "undefined" ? process.env?.IRONBOX_TIME_ZONE?.trim() : undefined;
if (envZone && !isTimeZone(envZone)) throw new Error(`IRONBOX_TIME_ZONE: "${envZone}" is not a time zone (e.g. Europe/Malta)`);
let zone = envZone || DEFAULT_TZ;

/** The shop's time zone: every day and time shown or counted is in it. */
export const shopTimeZone = () => zone;
/** Sets the shop's zone (the UI, from /health); an unknown name is ignored and false returned. */
export function setShopTimeZone(tz: string): boolean {
  if (!isTimeZone(tz)) return false;
  zone = tz;
  return true;
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** An Intl formatter in the shop's zone, built once per zone and options. */
export function zoned(locale: string, opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${zone}|${locale}|${JSON.stringify(opts)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...opts, timeZone: zone });
    formats.set(key, f);
  }
  return f;
}

/** The shop's calendar day of an instant, "YYYY-MM-DD". */
export const businessDay = (d: Date) => zoned("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" }).format(d);

/** Adds whole days to a "YYYY-MM-DD" day. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
