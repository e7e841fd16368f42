/** What HQ keeps of each site between restores, and what it reads back after a restart. */
import { existsSync, readFileSync, statSync } from "node:fs";
import type { SchemaVersion } from "../../../db/version";
import type { TotalsCheck } from "../money/check";
import type { DepositDay } from "../money/reads";
import type { CopyPosition } from "./incremental";

export interface Site {
  name: string;
  url: string | null;
  source: "config" | "storage";
}

/** What HQ knows of a site between restores (cents). */
export interface SiteRecord {
  restoring: Promise<void> | null;
  /** The copy's schema version and release, read before anything else is (null: not known yet). */
  schema: SchemaVersion | null;
  /** The replica's WAL listing when the copy in use was restored: the same listing, nothing to restore. */
  restoredListing: string | null;
  /** Rounds that found the replica unchanged and restored nothing. */
  unchanged: number;
  lastRestoredAt: string | null;
  lastDataAt: string | null;
  lastError: string | null;
  takings: { day: string; cents: number } | null;
  /** The till day's deposits per shop of the copy (issue 34), read with the takings. */
  deposits: { day: string; shops: DepositDay[] } | null;
  /** The copy in use's paid totals against its payment rows; null before a copy was checked. */
  totals: TotalsCheck | null;
  restores: number;
  retries: number;
  /** Where the copy in use is in its replica (null: unknown, the next restore is whole). */
  position: CopyPosition | null;
  /** When the copy in use last passed the full `integrity_check` (UTC ISO); the others had `quick_check`. */
  lastFullCheckAt: string | null;
  /** Restores made by applying new WAL segments to the kept copy. */
  applied: number;
}

export interface SiteStateCents {
  site: string;
  replica: string | null;
  source: "config" | "storage";
  has_copy: boolean;
  restoring: boolean;
  last_restored_at: string | null;
  last_data_at: string | null;
  lag_seconds: number | null;
  last_error: string | null;
  today_takings: number;
  /** Today's deposits and the balances held, per shop of the copy and summed (cents); null before a restore today. */
  deposits: { day: string; taken: number; given_back: number; spent: number; held: number; shops: DepositDay[] } | null;
  paid_totals: { ok: boolean; count: number; message: string } | null;
  restores: number;
  retries: number;
  schema: SchemaVersion | null;
  schema_note: string | null;
  unchanged_rounds: number;
  last_full_check_at: string | null;
  applied_restores: number;
}

/** What is known of the copy in use, kept beside it (`<site>.db.json`) so a restarted HQ knows it too. */
export interface CopyInfo {
  schema: SchemaVersion | null;
  listing: string | null;
  totals?: TotalsCheck | null;
  /** Absent in a copy made before issue 33 (its next restore is whole, and fully checked). */
  position?: CopyPosition | null;
  lastFullCheckAt?: string | null;
}

/** The record of a site whose copy (if any) is at `copy`, from the file and its `.json` beside it. */
export function recordOfCopy(copy: string): SiteRecord {
  const info = readInfo(`${copy}.json`);
  return {
    restoring: null,
    schema: info.schema,
    restoredListing: info.listing,
    unchanged: 0,
    lastRestoredAt: existsSync(copy) ? statSync(copy).mtime.toISOString() : null,
    lastDataAt: null,
    lastError: null,
    takings: null,
    deposits: null,
    totals: info.totals ?? null,
    restores: 0,
    retries: 0,
    position: info.position,
    lastFullCheckAt: info.lastFullCheckAt,
    applied: 0,
  };
}

function readInfo(path: string): Required<CopyInfo> {
  try {
    const info = JSON.parse(readFileSync(path, "utf8")) as Partial<CopyInfo>;
    return {
      schema: info.schema ?? null,
      listing: info.listing ?? null,
      totals: info.totals ?? null,
      position: info.position ?? null,
      lastFullCheckAt: info.lastFullCheckAt ?? null,
    };
  } catch {
    return { schema: null, listing: null, totals: null, position: null, lastFullCheckAt: null };
  }
}
