/** Schema pieces shared by the modules' models (zod): ids, bounded text, euros, days. */
import { z } from "zod";
import { normalizeDiscount } from "./money";

/** `{id}` path parameter. */
export const IdParams = z.object({ id: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

/** A short free-text field: trimmed, bounded so huge strings are refused with a 422. */
export const text = (max = 200) => z.string().trim().max(max);

/** Euros with at most two decimals in the API; cents in the database (conversions: ./money). */
export const euros = z.number().finite().min(0).max(10_000_000);

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
