import { statfsSync, statSync } from "node:fs";
import { basename } from "node:path";
import { eq } from "drizzle-orm";
import { listBackups, listBackupsIn, manualDir, nightlyDir } from "../../../db/backups";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import type { LinkHealth } from "../hqlink/model";
import { displayDateTime } from "../../domain/format";
import type { NightlyBackups } from "./backups";
import { NIGHTLY_KEEP } from "./backups";
import { checkIntegrity } from "./integrity";
import { type Attention, type BoxHealth, type DeviceHealth, IntegrityCheck } from "./model";

const KEY = "integrity_check";
/** Below this share of the data disk free, the box asks for a person. */
export const DISK_WARN_SHARE = 0.1;
/** A certificate expiring within this many days asks for a person. */
export const CERT_WARN_DAYS = 30;
const DAY_MS = 86_400_000;
/** The newest backup older than this asks for a person. */
export const BACKUP_WARN_HOURS = 48;
/** A box with no copy yet says nothing for this long after it starts (its first nightly copy is taken within minutes). */
const FIRST_BACKUP_GRACE_MS = 15 * 60_000;
const LINK_OFF: LinkHealth = { state: "off", lag_seconds: null, last_shipped_at: null, last_error: null, warn_after_seconds: 300 };

/** Free and total bytes of the file system holding `path` (what a non-root user may still write). */
export function diskSpace(path: string): { free: number; total: number } {
  const s = statfsSync(path);
  return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
}

const fileBytes = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};
const day = (iso: string) => iso.slice(0, 10);
const minutes = (s: number) => (s < 120 ? `${Math.round(s)} seconds` : s < 7200 ? `${Math.round(s / 60)} minutes` : `${Math.round(s / 3600)} hours`);

/**
 * The box's health, for the admin's "The box" screen and the home screen's warning tile: every
 * printer and gun with its state and last good job, disk, database (size, last check), the HQ
 * link, the last backup, version and uptime, the certificate, and what needs a person.
 */
export function createBoxHealthService(deps: {
  db: Db;
  clock: Clock;
  version: string;
  dataDir: string;
  /** The local database file; none for a remote database (no size, backups or checks). */
  dbFile?: string;
  printers: () => Promise<{ id: string; name: string; saved: boolean; state: DeviceHealth["state"] }[]>;
  printerOutcomes: () => Promise<Map<string, { last_ok_at: string | null; last_error: string | null }>>;
  guns: () => Promise<{ id: string; name: string; status: DeviceHealth["state"]; detail?: string; last_scan_at: string | null }[]>;
  link?: () => LinkHealth;
  certificate?: () => { expires_at: string; names: string[] } | null;
  /** The data folder's file system; tests inject a full disk. */
  disk?: (path: string) => { free: number; total: number };
  /** Nightly backups (none for a remote database). */
  backups?: NightlyBackups;
  log?: (m: string, e?: unknown) => void;
}) {
  const { db, clock } = deps;
  const startedAt = clock.now();
  const log = deps.log ?? console.error;

  async function lastCheck(): Promise<IntegrityCheck | null> {
    const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, KEY) });
    const parsed = row ? IntegrityCheck.safeParse(JSON.parse(row.value)) : null;
    return parsed?.success ? parsed.data : null;
  }

  /** Runs the database check off the event loop and records it. */
  async function runCheck(): Promise<IntegrityCheck | null> {
    if (!deps.dbFile) return null;
    const r = await checkIntegrity(deps.dbFile, () => clock.now());
    await db
      .insert(boxSettings)
      .values({ key: KEY, value: JSON.stringify(r) })
      .onConflictDoUpdate({ target: boxSettings.key, set: { value: JSON.stringify(r) } });
    if (!r.ok) log(`Database check found a problem: ${r.result}`);
    return r;
  }

  async function health(): Promise<BoxHealth> {
    const now = clock.now();
    const outcomes = await deps.printerOutcomes();
    const printers: DeviceHealth[] = (await deps.printers())
      .filter((p) => p.saved)
      .map((p) => ({
        id: p.id,
        name: p.name,
        state: p.state,
        last_ok_at: outcomes.get(p.id)?.last_ok_at ?? null,
        last_error: outcomes.get(p.id)?.last_error ?? null,
      }));
    const guns: DeviceHealth[] = (await deps.guns()).map((g) => ({
      id: g.id,
      name: g.name,
      state: g.status,
      last_ok_at: g.last_scan_at,
      last_error: g.status === "offline" ? (g.detail ?? null) : null,
    }));
    const space = (deps.disk ?? diskSpace)(deps.dataDir);
    const freeShare = space.total ? space.free / space.total : 1;
    const integrity = await lastCheck();
    const link = deps.link?.() ?? LINK_OFF;
    const [backup] = deps.dbFile
      ? [
          ...listBackupsIn(nightlyDir(deps.dbFile)).map((b) => ({ ...b, kind: "nightly" as const })),
          ...listBackupsIn(manualDir(deps.dbFile)).map((b) => ({ ...b, kind: "manual" as const })),
          ...listBackups(deps.dbFile).map((b) => ({ ...b, kind: "upgrade" as const })),
        ].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
      : [];
    const run = (await deps.backups?.lastRun()) ?? null;
    const second = (await deps.backups?.secondDir()) ?? { dir: null, from: null };
    const certificate = deps.certificate?.() ?? null;

    const attention: Attention[] = [];
    for (const p of printers) {
      if (p.state === "offline") attention.push({ what: "printer", message: `Printer "${p.name}" is not connected: check its cable and power` });
      else if (p.last_error) attention.push({ what: "printer", message: `Printer "${p.name}": the last job failed (${p.last_error})` });
    }
    for (const g of guns)
      if (g.state === "offline")
        attention.push({ what: "gun", message: `Barcode gun "${g.name}" is not connected${g.last_error ? ` (${g.last_error})` : ""}` });
    if (freeShare < DISK_WARN_SHARE)
      attention.push({ what: "disk", message: `The box's disk is nearly full: ${Math.floor(freeShare * 1000) / 10} % free. Free space before it fills` });
    if (link.state === "down") attention.push({ what: "link", message: `The link to head-quarters is down${link.last_error ? `: ${link.last_error}` : ""}` });
    else if (link.state === "lagging" || (link.lag_seconds ?? 0) > link.warn_after_seconds)
      attention.push({ what: "link", message: `Head-quarters is ${minutes(link.lag_seconds ?? 0)} behind this box` });
    if (integrity && !integrity.ok)
      attention.push({ what: "integrity", message: `The database check of ${day(integrity.checked_at)} found a problem: ${integrity.result}` });
    attention.push(...backupAttention({ now, startedAt, backup: backup ?? null, run, link, local: !!deps.dbFile }));
    if (certificate) {
      const left = (Date.parse(certificate.expires_at) - now.getTime()) / DAY_MS;
      if (left < CERT_WARN_DAYS)
        attention.push({
          what: "certificate",
          message:
            left < 0 ? `The box's certificate expired on ${day(certificate.expires_at)}` : `The box's certificate expires on ${day(certificate.expires_at)}`,
        });
    }

    return {
      version: deps.version,
      started_at: startedAt.toISOString(),
      uptime_seconds: Math.max(0, Math.round((now.getTime() - startedAt.getTime()) / 1000)),
      printers,
      guns,
      disk: { free_bytes: space.free, total_bytes: space.total, free_percent: Math.round(freeShare * 1000) / 10 },
      database: { bytes: deps.dbFile ? fileBytes(deps.dbFile) + fileBytes(`${deps.dbFile}-wal`) : 0, integrity },
      link,
      backup: backup ? { at: backup.at, version: backup.version, bytes: backup.bytes, file: basename(backup.file), kind: backup.kind } : null,
      backups: {
        last_run: run
          ? { at: run.at, ok: run.ok, bytes: run.bytes, error: run.error, copies: run.copies.map((c) => ({ dir: c.dir, ok: !c.error, error: c.error })) }
          : null,
        second_dir: second.dir,
        second_dir_from: second.from,
        keep: NIGHTLY_KEEP,
      },
      certificate,
      needs_attention: attention,
    };
  }

  return {
    health,
    runCheck,
    /** The database check `delayMs` after boot (when the box has settled), then every `everyMs`. Returns a stop function. */
    startChecks({ delayMs = 5 * 60_000, everyMs = DAY_MS }: { delayMs?: number; everyMs?: number } = {}) {
      if (!deps.dbFile) return () => {};
      let every: ReturnType<typeof setInterval> | undefined;
      const run = () => void runCheck().catch((e) => log("Database check failed to run", e));
      const first = setTimeout(() => {
        run();
        every = setInterval(run, everyMs);
        every.unref?.();
      }, delayMs);
      first.unref?.();
      return () => (clearTimeout(first), clearInterval(every));
    },
  };
}
export type BoxHealthService = ReturnType<typeof createBoxHealthService>;

/**
 * What the backups ask of a person: the last nightly copy failed, or did not reach the second
 * disk; the newest copy is over BACKUP_WARN_HOURS old; or there is no copy at all and no link
 * to HQ either (once the box has had time to take its first).
 */
export function backupAttention(a: {
  now: Date;
  startedAt: Date;
  backup: { at: string } | null;
  run: { at: string; ok: boolean; error: string | null; copies: { dir: string; error: string | null }[] } | null;
  link: LinkHealth;
  local: boolean;
}): Attention[] {
  if (!a.local) return [];
  const out: Attention[] = [];
  if (a.run && !a.run.ok) out.push({ what: "backup", message: `The backup of ${displayDateTime(a.run.at)} failed: ${a.run.error ?? "no reason given"}` });
  for (const c of a.run?.copies ?? [])
    if (c.error) out.push({ what: "backup", message: `The backup of ${displayDateTime(a.run!.at)} was not copied to ${c.dir}: ${c.error}` });
  if (a.backup) {
    const hours = (a.now.getTime() - Date.parse(a.backup.at)) / 3_600_000;
    if (hours > BACKUP_WARN_HOURS)
      out.push({
        what: "backup",
        message: `The newest backup is ${Math.floor(hours / 24)} days old (${displayDateTime(a.backup.at)}): check the nightly backup`,
      });
  } else if (a.link.state === "off" && a.now.getTime() - a.startedAt.getTime() >= FIRST_BACKUP_GRACE_MS)
    out.push({ what: "backup", message: "This box has no backup and no link to head-quarters: one dead disk would lose its data" });
  return out;
}
