/**
 * Money and percentages, in one place. The database and every service speak integer cents
 * (and integer hundredths of a percent for percent-valued prices); the API speaks euros with
 * two decimals and whole or decimal percents. Conversions happen here, at the route edge.
 */

/** Euros (API) → cents (database), rounded half away from zero. */
export const toCents = (euros: number) => Math.round(euros * 100);
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
