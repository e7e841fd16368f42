/** Schema pieces shared by the modules' models (zod): ids, bounded text, euros, days. */
import { z } from "zod";
import { isWholeCents, normalizeDiscount } from "./money";

/** `{id}` path parameter. */
export const IdParams = z.object({ id: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

/** A short free-text field: trimmed, bounded so huge strings are refused with a 422. */
export const text = (max = 200) => z.string().trim().max(max);

const WHOLE_CENTS = "must be in whole cents (at most two decimals)";

/**
 * A money amount a client sends: euros to the cent (issue 31), the one schema of every route
 * that takes euros (payments, refunds, tendered cash, the drawer's counts, charges, overrides,
 * catalogue prices and up-charges). A fraction of a cent is a 422, never rounded into a row
 * (isWholeCents says what counts as one). Cents in the database (conversions: ./money).
 */
export const eurosUpTo = (max: number) => z.number().finite().min(0).max(max).refine(isWholeCents, WHOLE_CENTS);
export const euros = eurosUpTo(10_000_000);

/**
 * The same amount as text, for a query or path parameter: plain decimal digits ("12.5",
 * "12.50"); no sign, exponent, spaces or hex, which `z.coerce.number()` used to take ("" was 0).
 */
export const eurosTextUpTo = (max: number) =>
  z
    .string()
    .regex(/^(\d+\.?\d*|\.\d+)$/, "must be an amount in euros, such as 12.50")
    // Read off the text itself, so no float tolerance applies: "1.0000001" is not 1.00.
    .refine((s) => !/\.\d\d\d*[1-9]/.test(s), WHOLE_CENTS)
    .transform(Number)
    .pipe(eurosUpTo(max));

/** A calendar day "YYYY-MM-DD" that really exists (spec §5: date filters accept only valid dates). */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, "must be a real date");

/**
 * A discount as a client sends it: a number, or text such as "PERCENTAGE 12.5" or "15 %".
 * Stored as "PERCENTAGE n" by the one rule of ./money (rounded, clamped to 0..100; spec §5).
 */
export const Discount = z.union([z.number().finite(), z.string().max(40)]).transform((d) => normalizeDiscount(d));

/** `?archived=true` lists archived staff or agents instead of the current ones (issue 22). */
export const ArchivedQuery = z.object({ archived: z.enum(["true", "false"]).optional() });
