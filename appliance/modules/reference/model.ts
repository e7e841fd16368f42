import { z } from "zod";

const isCell = (v: unknown) => v === null || typeof v === "string" || typeof v === "number";

/**
 * One table of a snapshot: its column names and its rows (values in column order, by key).
 * Rows are checked by one plain loop: a schema per cell held the event loop for tens of ms on
 * a catalogue of 18,000 prices.
 */
export const SnapshotTable = z.object({
  columns: z.array(z.string().regex(/^[a-z_][a-z0-9_]*$/)).min(1),
  rows: z.custom<(string | number | null)[][]>(
    (rows) => Array.isArray(rows) && rows.every((r) => Array.isArray(r) && r.every(isCell)),
    "rows are arrays of strings, numbers and nulls",
  ),
});

/** What HQ signs (gzip of its canonical JSON): the chain's reference data at one version. */
export const SnapshotContent = z.object({
  format: z.literal(1),
  version: z.number().int().positive(),
  created_at: z.string(),
  tables: z.record(z.string(), SnapshotTable),
  /** HQ's public address (IRONBOX_PUBLIC_URL at HQ), for the status links a shop mints (issue 35). */
  public_url: z.string().url().max(300).nullable().optional(),
});
export type SnapshotContent = z.infer<typeof SnapshotContent>;

/**
 * The snapshot as HQ serves it: `payload` is the gzip of the canonical JSON of the content,
 * base64; `signature` is HQ's Ed25519 signature over those gzip bytes (base64). `version` and
 * `created_at` repeat the signed content's, for a look before verifying; only the signed ones count.
 */
export const SignedSnapshot = z.object({
  version: z.number().int().positive(),
  created_at: z.string(),
  signature: z.string().max(200),
  payload: z.string(),
});
export type SignedSnapshot = z.infer<typeof SignedSnapshot>;

export const SnapshotQuery = z.object({ after: z.coerce.number().int().min(0).optional() });

/** A site as the shop box names itself (IRONBOX_SITE_NAME) and asks the downlink for. */
export const SiteTokenBody = z.object({ site: z.string().regex(/^[a-z0-9-]{1,63}$/, "a site name") }).strict();
export const SiteTokenResult = z.object({ site: z.string(), token: z.string() });

export const PublishResult = z.object({
  version: z.number().int(),
  created_at: z.string(),
  /** False when nothing changed since the last publish: that version stands. */
  changed: z.boolean(),
  rows: z.record(z.string(), z.number().int()),
  bytes: z.number().int(),
  public_key: z.string(),
});
export type PublishResult = z.infer<typeof PublishResult>;

export const ReferenceStatus = z.object({
  mode: z.enum(["shop", "hq"]),
  /** Enrolled with HQ: HQ-owned data is read-only here. */
  managed: z.boolean(),
  /** The applied snapshot's version (shop), or the last published one (HQ); null before the first. */
  version: z.number().int().nullable(),
  applied_at: z.string().nullable(),
  hq_url: z.string().nullable(),
  last_check_at: z.string().nullable(),
  last_error: z.string().nullable(),
  /** HQ only: the key shop boxes are enrolled with (IRONBOX_HQ_PUBLIC_KEY), once made. */
  public_key: z.string().nullable(),
});
export type ReferenceStatus = z.infer<typeof ReferenceStatus>;
