// The chain view's contract with the UI (issue 15): head quarters' box in HQ mode keeps a
// read-only copy of every site, restored from the site's Litestream replica, and reports over
// them. HQ staff only; on a shop's box every /chain route answers 409 (the box is in the wrong
// mode, the route exists). Money is euros here (the route edge), cents in the service.
// Records are keyed by (site, id): ids are each site's own, so a chain report names the site.
import { z } from "zod";
import { SITE_NAME } from "../../domain/sites";
import { HomeStatistics } from "../reports/model";

export const SiteName = z.string().regex(SITE_NAME, "must be lower-case letters, digits and dashes");

export const SiteParams = z.object({ site: SiteName });

/** One site as head quarters sees it. */
export const SiteState = z.object({
  site: SiteName,
  /** Where its replica is read, without any password; null when no replica has arrived. */
  replica: z.string().nullable(),
  /** "config" (IRONBOX_SITES) or "storage" (a folder under IRONBOX_HQ_STORAGE). */
  source: z.enum(["config", "storage"]),
  /** Whether HQ holds a copy to report on. */
  has_copy: z.boolean(),
  restoring: z.boolean(),
  /** When the copy in use was swapped in (UTC ISO). */
  last_restored_at: z.string().nullable(),
  /** The newest ticket or item state change in the copy (UTC ISO). */
  last_data_at: z.string().nullable(),
  /**
   * Seconds from the copy's newest data to now: how far behind HQ may be. A quiet shop (no
   * tickets, no scans) shows a growing lag too; the shop's own screen shows what it has shipped.
   */
  lag_seconds: z.number().nullable(),
  /** The last restore's failure in plain words (the copy in use stays), null after a success. */
  last_error: z.string().nullable(),
  /** Payments taken today (Malta day) in the copy, euros. */
  today_takings: z.number(),
  /**
   * Deposits (issue 34), euros: today's (Malta day) taken into the drawers, given back and spent
   * on tickets, and `held`, the liability: every customer's balance at the site's shops. Per
   * shop of the copy and summed. null before the copy was restored today.
   */
  deposits: z
    .object({
      day: z.string(),
      taken: z.number(),
      given_back: z.number(),
      spent: z.number(),
      held: z.number(),
      shops: z.array(z.object({ agent_id: z.number().int(), taken: z.number(), given_back: z.number(), spent: z.number(), held: z.number() })),
    })
    .nullable(),
  /**
   * The copy's paid totals against its payment rows (issue 31), checked on each restore: a
   * finding is an old or damaged site file (the site's database refuses such a write). null
   * before a copy was checked or when it is on another schema version.
   */
  paid_totals: z.object({ ok: z.boolean(), count: z.number().int(), message: z.string() }).nullable(),
  /** Restores swapped in, and failed attempts retried, since the box started. */
  restores: z.number(),
  retries: z.number(),
  /** The copy's schema version (its last migration) and release, read before anything else is; null before the first restore. */
  schema: z
    .object({
      version: z.number().nullable(),
      release: z.string().nullable(),
      status: z.enum(["current", "behind", "ahead", "unknown"]).describe("Against the schema HQ's release reads: only `current` copies are read"),
    })
    .nullable(),
  /** What a copy on another version means, in plain words ("reports for this site wait until it upgrades"); null when HQ reads it. */
  schema_note: z.string().nullable(),
  /** Restore rounds that found the site's replica unchanged and restored nothing, since the box started. */
  unchanged_rounds: z.number(),
  /**
   * When the copy in use last passed SQLite's full `integrity_check` (UTC ISO): once a day per
   * site; the other restores of the day take `quick_check` (issue 33). Null before the first.
   */
  last_full_check_at: z.string().nullable(),
  /** Restores made by applying the replica's new WAL segments to the kept copy (not a whole restore), since the box started. */
  applied_restores: z.number(),
});
export type SiteState = z.infer<typeof SiteState>;

export const SiteList = z.array(SiteState);

/** `?site=` narrows a chain report or the statistics to one site. */
export const SiteFilter = z.object({ site: SiteName.optional() });

/** GET /chain/statistics: the home statistics of each site, and summed over the chain. */
export const ChainStatistics = z.object({
  day: z.string(),
  /** Every site's figures added up (top garments and actions from each site's top 10). */
  chain: HomeStatistics,
  sites: z.array(z.object({ site: SiteName, statistics: HomeStatistics })),
});
export type ChainStatistics = z.infer<typeof ChainStatistics>;

/**
 * GET /chain/shops: a shop (agent) of a site as HQ's copy of it shows it, for choosing by name
 * where a route takes the shop's id at that site (the deposit transfer between boxes).
 */
export const ChainShop = z.object({
  site: SiteName,
  /** The shop's id on the site's own box (each site numbers its agents itself). */
  agent_id: z.number().int(),
  name: z.string(),
  is_hq: z.boolean(),
  enabled: z.boolean(),
  /** When the shop was archived at the site (UTC ISO), or null. */
  archived_at: z.string().nullable(),
});
export type ChainShop = z.infer<typeof ChainShop>;
