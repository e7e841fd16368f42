/**
 * Nightly backups: a shop that runs without the link to HQ must not lose years of customers to
 * one dead disk. Every night (02:00–05:00 in the shop's zone) the box takes a consistent copy of
 * its database into <data dir>/backups/nightly and, when one is set (IRONBOX_BACKUP_DIR or the
 * "The box" screen), onto a second disk or USB stick; each copy is checked and the newest
 * NIGHTLY_KEEP are kept in each folder. The work runs in a process of its own (backupChild.ts),
 * at nice 10. scripts/restore-box.sh --from-backup puts a copy back.
 */
import { lstatSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { listBackupsIn, manualDir, nightlyDir } from "../../../db/backups";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import { zoned } from "../../domain/dates";
import { isUnder, MOUNTED_DISK_ROOTS } from "../../domain/disks";
import type { Clock } from "../../platform/clock";
import { runChild } from "../../platform/child";
import { conflict, tooMany, unprocessable } from "../../platform/errors";
import { audit } from "../audit/audit";
import type { EmployeeCaller } from "../auth/caller";
import type { BackupJob, BackupOutcome } from "./backupChild";
import type { BackupDirBody } from "./model";

const CHILD = join(import.meta.dir, "backupChild.ts");
const RUN_KEY = "nightly_backup";
const DIR_KEY = "backup_dir";
const HOUR_MS = 3_600_000;
/** How many nightly copies each folder keeps (a week). */
export const NIGHTLY_KEEP = 7;
/**
 * Copies taken by hand (the Backup button, any admin) go to a folder of their own, manual/ beside
 * nightly/ and under the backup folder, with their own rotation: pressing the button eight times
 * never pushes the week of nightly copies out. The newest MANUAL_KEEP are kept.
 */
export const MANUAL_KEEP = 3;
/** A copy by hand this soon after the last one is refused (429): the button is not a loop. */
export const MANUAL_GAP_MS = 10 * 60_000;
/** The night window, hours in the shop's zone: the shop is closed, the counter is quiet. */
const NIGHT = { from: 2, to: 5 };
/** A copy at least this old is replaced in the night window (one a night, whatever time the last was). */
const NIGHT_MIN_AGE_MS = 6 * HOUR_MS;
/** A box that was off at night takes its copy as soon as this much has passed since the last. */
const OVERDUE_MS = 26 * HOUR_MS;

/** The last run, as recorded in box_settings (parsed by its schema when read). */
export const BackupRun = z.object({
  at: z.string(),
  ok: z.boolean(),
  file: z.string().nullable(),
  bytes: z.number().nullable(),
  ms: z.number().int(),
  error: z.string().nullable(),
  copies: z.array(z.object({ dir: z.string(), file: z.string().nullable(), error: z.string().nullable() })),
});
export type BackupRun = z.infer<typeof BackupRun>;

// The zone read at each call: a zone set on "The box" moves the night window at once (issue 31).
const hourIn = (d: Date) => Number(zoned("en-GB", { hour: "2-digit", hourCycle: "h23" }).format(d));

/** Whether a nightly copy is due at `now`, given the newest one's time (null: none yet). */
export function backupDue(now: Date, newest: Date | null): boolean {
  if (!newest) return true;
  const age = now.getTime() - newest.getTime();
  if (age >= OVERDUE_MS) return true;
  const h = hourIn(now);
  return age >= NIGHT_MIN_AGE_MS && h >= NIGHT.from && h < NIGHT.to;
}

/**
 * Runs a backup job in its own process through the platform's runner (platform/child.ts): at
 * nice 10, killed after `timeoutMs` or when `signal` aborts (the box stopping). A copy killed
 * half-way leaves its `.<name>.partial` file: removed here, so no folder keeps half a copy.
 */
export async function backupInChild(job: BackupJob, o: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<BackupOutcome> {
  const timeoutMs = o.timeoutMs ?? 60 * 60_000;
  const end = await runChild([process.execPath, CHILD], { input: JSON.stringify(job), nice: 10, timeoutMs, signal: o.signal });
  if (end.exit === "ok") return JSON.parse(end.stdout) as BackupOutcome;
  if (end.exit === "timeout" || end.exit === "aborted" || end.exit === "killed") removePartials(job.dirs);
  if (end.exit === "timeout") throw new Error(`the backup took longer than ${Math.round(timeoutMs / 60_000)} minutes and was stopped`);
  if (end.exit === "aborted") throw new Error("the backup was stopped: the box was stopping");
  const err = end.stderr;
  throw new Error(/BackupError: (.*)$/m.exec(err)?.[1] ?? /^\s*\w*Error: (.*)$/m.exec(err)?.[1] ?? `the backup stopped (exit ${end.code ?? end.exit})`);
}

/**
 * The half-written copies (`.<name>.partial`, backupChild.ts) a killed backup leaves, with the
 * rollback journal SQLite keeps beside a copy being written (`.partial-journal`; a child killed
 * mid-VACUUM INTO leaves it); one backup runs at a time.
 */
const PARTIAL = /\.partial(-journal|-wal|-shm)?$/;
function removePartials(dirs: string[]) {
  for (const dir of dirs) {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      continue; // a folder the copy never reached (an unplugged disk)
    }
    for (const n of names) if (n.startsWith(".") && PARTIAL.test(n)) rmSync(join(dir, n), { force: true });
  }
}

export function createNightlyBackups(deps: {
  db: Db;
  clock: Clock;
  dbFile: string;
  version: string;
  /** IRONBOX_BACKUP_DIR: a second disk set in the environment (the screen's setting is then shown, not used). */
  envDir: string | null;
  log: (m: string, e?: unknown) => void;
  /** The child process; tests may run the job in their own process. `signal` aborts when the box stops. */
  run?: (job: BackupJob, signal: AbortSignal) => Promise<BackupOutcome>;
  /** Where a backup folder may be (MOUNTED_DISK_ROOTS); tests name a stand-in mount point. */
  diskRoots?: readonly string[];
}) {
  const { db, clock } = deps;
  const run = deps.run ?? ((job, signal) => backupInChild(job, { signal }));
  /** Aborted when the box stops (lifecycle): a running copy's child is killed and its partial file removed. */
  const stopping = new AbortController();
  let running: Promise<BackupRun> | null = null;
  /** When the last copy by hand was asked for (a failed one too: it is not retried in a loop either). */
  let lastManual = 0;

  async function setting(key: string): Promise<string | null> {
    const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, key) });
    return row?.value ?? null;
  }
  async function put(key: string, value: string | null) {
    if (value === null) await db.delete(boxSettings).where(eq(boxSettings.key, key));
    else await db.insert(boxSettings).values({ key, value }).onConflictDoUpdate({ target: boxSettings.key, set: { value } });
  }
  /** The second disk's folder: the environment's, else the screen's, else none. */
  async function secondDir(): Promise<{ dir: string | null; from: "env" | "settings" | null }> {
    if (deps.envDir) return { dir: deps.envDir, from: "env" };
    const dir = await setting(DIR_KEY);
    return { dir, from: dir ? "settings" : null };
  }
  async function lastRun(): Promise<BackupRun | null> {
    const raw = await setting(RUN_KEY);
    if (!raw) return null;
    try {
      const parsed = BackupRun.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }
  /** Takes a nightly copy now (one at a time: a second call joins the running one) and records the outcome. */
  function runNow(manual = false): Promise<BackupRun> {
    running ??= (async () => {
      const at = clock.now();
      const t0 = performance.now();
      const { dir } = await secondDir();
      let r: BackupRun;
      try {
        const out = await run(
          {
            source: deps.dbFile,
            version: deps.version,
            at: at.toISOString(),
            dirs: manual ? [manualDir(deps.dbFile), ...(dir ? [join(dir, "manual")] : [])] : [nightlyDir(deps.dbFile), ...(dir ? [dir] : [])],
            keep: manual ? MANUAL_KEEP : NIGHTLY_KEEP,
            ...(manual ? { inFolders: true } : {}),
          },
          stopping.signal,
        );
        r = { at: at.toISOString(), ok: true, file: out.file, bytes: out.bytes, ms: out.ms, error: null, copies: out.copies };
        for (const c of out.copies) if (c.error) deps.log(`Backup: no copy on ${c.dir}: ${c.error}`);
      } catch (e) {
        r = {
          at: at.toISOString(),
          ok: false,
          file: null,
          bytes: null,
          ms: Math.round(performance.now() - t0),
          error: (e as Error).message.slice(0, 300),
          copies: [],
        };
        deps.log(`Backup failed: ${r.error}`);
      }
      await put(RUN_KEY, JSON.stringify(r));
      return r;
    })().finally(() => {
      running = null;
    });
    return running;
  }
  /** Takes a copy when one is due (the newest nightly copy on the data disk says when the last was). */
  async function tick(): Promise<BackupRun | null> {
    if (running) return null;
    const last = await lastRun();
    const [copy] = listBackupsIn(nightlyDir(deps.dbFile));
    const newest = copy ? new Date(copy.at) : null;
    // A failed run is retried an hour on, not on every tick.
    if (last && !last.ok && clock.now().getTime() - Date.parse(last.at) < HOUR_MS) return null;
    return backupDue(clock.now(), newest) ? runNow() : null;
  }
  /**
   * A copy by hand (the Backup button): into the manual folders, never the nightly ones; 409
   * while a copy is being taken, 429 within MANUAL_GAP_MS of the last one asked for.
   */
  async function runManual(): Promise<BackupRun> {
    if (running) throw conflict("A backup is being taken now: its outcome shows here when it is done");
    const [newest] = listBackupsIn(manualDir(deps.dbFile));
    const last = Math.max(lastManual, newest ? Date.parse(newest.at) : 0);
    const now = clock.now().getTime();
    if (now - last < MANUAL_GAP_MS) {
      const wait = Math.ceil((MANUAL_GAP_MS - (now - last)) / 60_000);
      throw tooMany(`A backup was taken by hand less than ${MANUAL_GAP_MS / 60_000} minutes ago: try again in ${wait} minute${wait === 1 ? "" : "s"}`);
    }
    lastManual = now;
    return runNow(true);
  }
  return {
    runNow,
    runManual,
    tick,
    lastRun,
    secondDir,
    /** The second disk's folder from the screen (HQ staff): an existing folder on a mounted disk the box can write; audited. */
    async saveSecondDir(caller: EmployeeCaller, body: BackupDirBody) {
      if (deps.envDir) throw conflict("The backup folder is set by the box's environment (IRONBOX_BACKUP_DIR): change it there");
      let dir: string | null = null;
      if (body.dir !== null && body.dir.trim() !== "") {
        dir = resolve(body.dir.trim());
        // Only mounted disks: never /tmp, which the unit's PrivateTmp empties at every restart.
        const roots = deps.diskRoots ?? MOUNTED_DISK_ROOTS;
        if (!body.dir.trim().startsWith("/") || !isUnder(dir, roots))
          throw unprocessable(`dir: a backup folder must be under ${MOUNTED_DISK_ROOTS.join(", ")} (a second disk or USB stick)`);
        let st: ReturnType<typeof lstatSync> | null = null;
        try {
          st = lstatSync(dir);
        } catch {}
        if (!st?.isDirectory()) throw unprocessable(`dir: ${dir} is not a folder on this box (is the disk plugged in and mounted?)`);
        const probe = join(dir, `.ironbox-probe-${process.pid}`);
        try {
          writeFileSync(probe, "");
          rmSync(probe);
        } catch {
          throw unprocessable(`dir: the box cannot write to ${dir} (it runs as its own user: give that user the folder)`);
        }
      }
      const before = await setting(DIR_KEY);
      await db.transaction(async (tx) => {
        if (dir === null) await tx.delete(boxSettings).where(eq(boxSettings.key, DIR_KEY));
        else
          await tx
            .insert(boxSettings)
            .values({ key: DIR_KEY, value: dir })
            .onConflictDoUpdate({ target: boxSettings.key, set: { value: dir } });
        await audit(tx, clock.now(), caller, "update", "backup_dir", null, { dir: [before, dir] });
      });
    },
    /** The first look `delayMs` after boot (the box has settled), then every `everyMs`. Returns a stop function. */
    start({ delayMs = 2 * 60_000, everyMs = 10 * 60_000 }: { delayMs?: number; everyMs?: number } = {}) {
      let every: ReturnType<typeof setInterval> | undefined;
      const go = () => void tick().catch((e) => deps.log("Backup: the scheduler failed", e));
      const first = setTimeout(() => {
        go();
        every = setInterval(go, everyMs);
        every.unref?.();
      }, delayMs);
      first.unref?.();
      return async () => {
        clearTimeout(first);
        clearInterval(every);
        stopping.abort();
        await running?.catch(() => {});
      };
    },
  };
}
export type NightlyBackups = ReturnType<typeof createNightlyBackups>;
