// The import's options, progress and report: what the command line, the HQ screen and the
// tests hand to runImport and get back.
import type { Db } from "../../../db/client";
import type { Clock } from "../../platform/clock";
import type { EmployeeCaller } from "../auth/caller";
import type { SourceOptions } from "./client";
import type { Skipped } from "./privileges";
import type { Kind, NewPin } from "./writer";

export interface Progress {
  kind: Kind;
  label: string;
  /** Records of this kind read so far, and how many there are (estimated for paged kinds). */
  done: number;
  total: number;
  /** Kinds finished, of all. */
  step: number;
  steps: number;
}

export interface KindCounts {
  read: number;
  new: number;
  changed: number;
  unchanged: number;
  refused: number;
}

export interface Refusal {
  kind: Kind;
  id: number | null;
  reason: string;
}

export interface ImportReport {
  run_id: number | null;
  source: string;
  dry_run: boolean;
  started_at: string;
  finished_at: string;
  seconds: number;
  requests: number;
  kinds: Partial<Record<Kind, KindCounts>>;
  refusals: Refusal[];
  refusals_not_listed: number;
  /** HQ flags and roles the old system gave that this box did not take (privileges.ts). */
  skipped: Skipped[];
  /** Per ticket, the imported total and paid equal the source's (checked in each ticket's transaction). */
  money: { tickets: number; total_cents: number; paid_cents: number; equal_to_source: boolean; refused_for_money: number };
  /**
   * After the run, the whole box's paid totals against their payment rows (payments/check.ts,
   * issue 31): `message` is "ok" or how many differ and the first. null for a dry run.
   */
  totals: { ok: boolean; count: number; message: string } | null;
  /** New PINs of imported employees: shown once, never stored. */
  pins: NewPin[];
}

export interface ImportDeps {
  db: Db;
  clock: Clock;
  secret: string;
  /** Who the import acts as on this box (an admin of HQ): audit rows, payments. */
  caller: EmployeeCaller;
  /** The box's database file, for checks run off the event loop; null or absent: a remote database, checked through `db`. */
  databaseFile?: string | null;
}

export interface ImportOptions extends SourceOptions {
  dryRun?: boolean;
  onProgress?: (p: Progress) => void;
  /** Stops between batches (an HQ screen's Cancel, a test's "kill halfway"). */
  signal?: AbortSignal;
  pageSize?: number;
  /** false: every ticket record by record, never a page at once (bulkSame.test.ts compares both paths' rows). */
  pageAtATime?: boolean;
  /** Awaited after each batch is written: where the caller keeps the WAL bounded (db/client.ts checkpointEvery). */
  afterWrite?: () => Promise<void>;
}

/**
 * Writes (a page of tickets is one) between the import's checkpoints: about 8 × 2.5 MB of WAL
 * at most before it is folded back, and one checkpoint every few seconds of a running import.
 */
export const IMPORT_CHECKPOINT_WRITES = 8;
