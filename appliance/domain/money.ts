/**
 * Money and percentages, in one place. The database and every service speak integer cents
 * (and integer hundredths of a percent for percent-valued prices); the API speaks euros with
 * two decimals and whole or decimal percents. Conversions happen here, at the route edge.
 */

/**
 * Euros → cents, rounded half away from zero on the decimal the number is written as (its
 * shortest round-trip text, which is what JSON, a keyboard and `String(n)` give): 1.005 → 101,
 * -0.005 → -1, 0.29 → 29. Multiplying first (`Math.round(euros * 100)`) did neither: 1.005 is
 * 1.00499999999999989… in binary, so 1.005 * 100 is 100.49999999999999 (→ 100), and Math.round
 * takes -0.5 up to -0. Shifting the decimal point in the text is exact. Amounts a client sends
 * never need this rounding: the routes refuse a fraction of a cent (domain/schemas `euros`);
 * it serves amounts the box or the tablet computes. Not finite → NaN or ±Infinity, as before.
 */
export function toCents(euros: number): number {
  if (!Number.isFinite(euros)) return Math.round(euros * 100);
  const [digits, exponent] = Math.abs(euros).toExponential().split("e") as [string, string];
  const cents = Math.round(Number(`${digits}e${Number(exponent) + 2}`));
  return euros < 0 && cents !== 0 ? -cents : cents;
}

/**
 * Whether euros are whole cents. A client's own arithmetic leaves binary noise (10.1 - 3.2 is
 * 6.8999999999999995, i.e. 6.90), so a number within a millionth of a cent of a whole cent is
 * that cent; 0.005, 0.001 and 1.005 (a tenth of a cent or more off) are not.
 */
export const isWholeCents = (euros: number) => Number.isFinite(euros) && Math.abs(euros * 100 - Math.round(euros * 100)) < 1e-6;
/**
 * An amount typed on a tablet ("12,50", "12.50", "12") in cents; NaN when it is no plain amount
 * or holds a fraction of a cent ("1.005" is refused, not rounded: the box would refuse it too).
 */
/** What a tablet says when typed text holds a fraction of a cent. */
export const WHOLE_CENTS_ONLY = "Whole cents only (at most two decimals)";
/** Typed text with a digit other than 0 past the second decimal ("1.005", "0,001"). */
export const isFractionOfCent = (text: string) => /[.,]\d\d\d*[1-9]/.test(text.trim());

export function typedCents(text: string): number {
  const t = text.trim().replace(",", ".");
  if (!/^(\d+\.?\d*|\.\d+)$/.test(t) || /\.\d\d\d*[1-9]/.test(t)) return Number.NaN;
  return toCents(Number(t));
}

/** Cents (database) → euros (API). */
export const toEuros = (cents: number) => cents / 100;

/** Euros to the cent, as the box would store them (12.345 → 12.35). */
export const roundEuros = (euros: number) => toEuros(toCents(euros));
/** A sum of euro amounts, added in cents so that 0.1 + 0.2 is 0.3. */
export const sumEuros = (amounts: readonly number[]) => toEuros(amounts.reduce((s, a) => s + toCents(a), 0));

/** A percent (API, e.g. 150 or 12.5) → hundredths of a percent (database: 15000, 1250). */
export const toHundredths = (percent: number) => Math.round(percent * 100);
/** Hundredths of a percent (database) → a percent (API). */
export const fromHundredths = (hundredths: number) => hundredths / 100;

/**
 * A percentage of an amount, to the cent (half away from zero): a driver's commission on a
 * ticket, an owing's amount received (spec §3: amount × percentage / 100). The one rule.
 */
export const percentOfCents = (cents: number, percent: number) => Math.round((cents * percent) / 100);

/** A discount percent: a whole number 0..100 (spec §5: clamped, not refused). */
export function clampPercent(n: number): number {
  if (!Number.isFinite(n)) return 0;
  return Math.min(100, Math.max(0, Math.round(n)));
}

/**
 * Spec §3/§5: discounts are stored as the text "PERCENTAGE n". Whatever the client sends (a
 * number, or text with a decimal such as "PERCENTAGE 12.5" or "15 %") becomes a whole percent
 * the same way everywhere, on the box and on the tablet: rounded half up, then clamped to 0..100
 * ("-5" is 0). Text that is no percentage at all is 0.
 */
export function parseDiscount(text: string | number | null | undefined): number {
  if (typeof text === "number") return clampPercent(text);
  const m = /^\s*(?:PERCENTAGE\s+)?(-?\d+(?:\.\d+)?)\s*%?\s*$/i.exec(text ?? "");
  return m ? clampPercent(Number(m[1])) : 0;
}

export function formatDiscount(percent: number): string {
  return `PERCENTAGE ${clampPercent(percent)}`;
}

/** A discount as a client sends it (number or text) → the stored text. */
export const normalizeDiscount = (input: string | number) => formatDiscount(parseDiscount(input));

/*
 * Balance, credit and change (issue 31): one rule each, in cents, for the box and the tablet.
 * A total overridden below what was paid leaves no balance but a credit the shop owes the
 * customer; the screens show that credit instead of a misleading zero.
 */

/** What is left to pay: the total less what was paid, never below 0. */
export const balanceDue = (totalCents: number, paidCents: number) => Math.max(0, totalCents - paidCents);

/** What the shop owes back when more was paid than the total (an override below the paid amount). */
export const creditOwed = (totalCents: number, paidCents: number) => Math.max(0, paidCents - totalCents);

/** The change for cash handed over, or null when what was handed over does not cover the amount. */
export const changeDue = (tenderedCents: number, amountCents: number): number | null => (tenderedCents >= amountCents ? tenderedCents - amountCents : null);
