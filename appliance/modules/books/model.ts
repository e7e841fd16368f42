// The accountant's journal and its chart of account codes (issue 34).
import { z } from "zod";
import { IsoDate, text } from "../../domain/schemas";
import { SITE_NAME } from "../../domain/sites";

const SiteName = z.string().regex(SITE_NAME, "must be lower-case letters, digits and dashes");

export const JOURNAL_FORMATS = ["xero", "quickbooks", "csv"] as const;
export type JournalFormat = (typeof JOURNAL_FORMATS)[number];

/** At most a year a file: a day of a shop is about a dozen lines. */
export const JOURNAL_MAX_DAYS = 366;

export const JournalQuery = z
  .object({
    from: IsoDate,
    to: IsoDate,
    format: z.enum(JOURNAL_FORMATS).optional(),
    /** HQ: one shop (default: every shop, chain-wide). */
    agent: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    /** HQ in HQ mode: one site's copy only (default: HQ's own database and every site's copy). */
    site: SiteName.optional(),
  })
  .refine((q) => q.from <= q.to, "from must not be after to")
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < JOURNAL_MAX_DAYS, `at most ${JOURNAL_MAX_DAYS} days`);
export type JournalQuery = z.infer<typeof JournalQuery>;

export const AccountCode = z.object({
  key: z.string(),
  /** What the line is, for the screen. */
  label: z.string(),
  code: z.string(),
  name: z.string(),
  /** True while HQ has not set it (the default shown is used). */
  is_default: z.boolean(),
});
export type AccountCode = z.infer<typeof AccountCode>;

/** Codes and names as an accounting package takes them: no control characters; letters, digits and common punctuation. */
const codeText = (max: number) =>
  text(max)
    .min(1, "is required")
    .regex(/^[\p{L}\p{N} .,:;&()'/_%-]+$/u, "letters, digits, spaces and . , : ; & ( ) ' / _ % - only");

export const AccountCodesBody = z.object({
  accounts: z.array(z.object({ key: z.string().max(40), code: codeText(20), name: codeText(100) })).max(100),
});
