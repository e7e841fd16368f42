/**
 * HQ mode (issue 15): head quarters' box restores each site's Litestream replica into a
 * read-only copy, `<data>/sites/<site>.db`, on a schedule and on demand, and runs the chain's
 * reports over the copies.
 *
 * A restore: `litestream restore -o <tmp> <replica>` (a child process; one that overlaps an
 * upload can fail with EOF, so it is tried again) or, in a round, the replica's new WAL
 * segments applied to a copy of the copy in use (incremental.ts, apply.ts: a round then costs
 * what changed, not each shop's size); then the check in a process of its own (check.ts:
 * `PRAGMA quick_check`, the full `integrity_check` once a day per site; the copy turned to a
 * rollback journal), then a rename over the copy in use. A copy that fails leaves the one in
 * use as it was. Readers (report processes) open the copy read-only; one that holds the old
 * file when it is replaced keeps reading the old file until it finishes. Never two restores of one site at once: asking
 * while one runs joins it.
 */
import { existsSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { LITESTREAM_BIN, replicaOnlyConfig } from "../../../drivers/replication/litestream";
import { walFailure } from "../../../drivers/replication/torn";
import { businessDay } from "../../domain/dates";
import { isSiteName } from "../../domain/sites";
import { maskUrl } from "../../domain/urls";
import { runChild } from "../../platform/child";
import type { Clock } from "../../platform/clock";
import { expectedSchemaVersion } from "../../../db/version";
import type { HqConfig } from "../../platform/config";
import { conflict, notFound } from "../../platform/errors";
import type { DbTarget } from "../reports/job";
import type { ReportName, ReportQuery } from "../reports/model";
import type { HomeCents } from "../reports/queries";
import type { ReportService } from "../reports/service";
import type { CheckResult } from "./check";
import { describeTotals } from "../money/check";
import type { DepositDay } from "../money/reads";
import { type CopyInfo, recordOfCopy, type Site, type SiteRecord, type SiteStateCents } from "./records";
import { applyToCopy, planApply, positionOf, replicaGenerations, restoredFrom } from "./incremental";
import { restoreBeforeTorn } from "./torn";
import { explain, schemaNote } from "./words";

const CHECK = fileURLToPath(new URL("./check.ts", import.meta.url));
const APPLY = fileURLToPath(new URL("./apply.ts", import.meta.url));

/** Attempts of one restore (the first and its retries), and the wait before each retry. */
const ATTEMPTS = 4;
const RETRY_MS = 400;
/** A restore that takes longer is stopped (a hung SSH connection, say). */
const RESTORE_TIMEOUT_MS = 10 * 60_000;

/** A site's deposits summed over its shops, with each shop's. */
function depositSums(day: string, shops: DepositDay[]) {
  const sum = (k: "taken" | "given_back" | "spent" | "held") => shops.reduce((s, x) => s + x[k], 0);
  return { day, taken: sum("taken"), given_back: sum("given_back"), spent: sum("spent"), held: sum("held"), shops };
}

export function createChainService(deps: {
  hq: HqConfig | null;
  dataDir: string;
  clock: Clock;
  reports: ReportService;
  log: (m: string, e?: unknown) => void;
  /** The Litestream binary (tests put a stand-in that fails on cue in front of the real one). */
  litestream?: string;
  /** The bench's "before" (scripts/bench/hq-sites.ts): the full check every time, no apply. */
  tuning?: { fullCheck?: "daily" | "always"; incremental?: boolean };
}) {
  const litestream = deps.litestream ?? LITESTREAM_BIN;
  const dir = join(deps.dataDir, "sites");
  const records = new Map<string, SiteRecord>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let round: Promise<void> | null = null;

  function hq(): HqConfig {
    if (!deps.hq) throw conflict("This is a shop's box: the chain view is on head quarters' box (IRONBOX_MODE=hq)");
    return deps.hq;
  }
  const copyPath = (site: string) => join(dir, `${site}.db`);
  const infoPath = (site: string) => `${copyPath(site)}.json`;
  const expected = expectedSchemaVersion();

  function record(site: string): SiteRecord {
    let r = records.get(site);
    if (!r) {
      r = recordOfCopy(copyPath(site));
      records.set(site, r);
    }
    return r;
  }

  /**
   * A site folder's replica: the folder itself when Litestream writes into it, else the one
   * folder inside it that holds a replica (an SFTP chroot's root is root's, so the shop writes
   * one level down). Must stay inside the storage folder (no symbolic link out of it).
   */
  function replicaIn(root: string, folder: string): string | null {
    const candidates = [
      folder,
      ...readdirSync(folder, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => join(folder, d.name))
        .sort(),
    ];
    const found = candidates.find((c) => existsSync(join(c, "generations")));
    if (!found) return null;
    const real = realpathSync(found);
    return real.startsWith(realpathSync(root) + sep) ? real : null;
  }

  /** The sites: those configured, then the folders of the storage (read at each call: a new shop's folder shows up). */
  function sites(): Site[] {
    const cfg = hq();
    const list: Site[] = cfg.sites.map((s) => ({ name: s.name, url: s.url, source: "config" }));
    if (cfg.storage && existsSync(cfg.storage)) {
      for (const d of readdirSync(cfg.storage, { withFileTypes: true })) {
        if (!d.isDirectory() || !isSiteName(d.name) || list.some((s) => s.name === d.name)) continue;
        const replica = replicaIn(cfg.storage, join(cfg.storage, d.name));
        list.push({ name: d.name, url: replica ? pathToFileURL(replica).toString() : null, source: "storage" });
      }
    }
    return list.sort((a, b) => a.name.localeCompare(b.name));
  }

  function site(name: string): Site {
    const s = sites().find((x) => x.name === name);
    if (!s) throw notFound("Site");
    return s;
  }

  function clearTmp(tmp: string) {
    for (const f of ["", "-wal", "-shm", "-journal", ".tmp", ".tmp-wal", ".tmp-shm", ".plan.json"]) rmSync(tmp + f, { force: true });
  }

  /** The arguments that name the replica: the URL, or (SFTP with a key) a configuration naming it. */
  function replicaArgs(s: Site & { url: string }): string[] {
    const key = hq().sftpKey;
    if (!s.url.startsWith("sftp:") || !key || new URL(s.url).password) return [s.url];
    // Litestream 0.3 takes an SSH key only from a configuration file (`key-path`).
    const cfg = join(dir, `.litestream-${s.name}.yml`);
    const virtual = `/ironbox-hq/${s.name}.db`;
    writeFileSync(cfg, replicaOnlyConfig({ dbPath: virtual, target: { url: s.url, keyPath: key } }), { mode: 0o600 });
    return ["-config", cfg, "-no-expand-env", virtual];
  }

  /** Aborted when the box stops: kills the restores and checks under way. */
  const stopping = new AbortController();

  /**
   * A restore or check: bounded, killed when the box stops. At normal priority: HQ's box has no
   * counter to protect, and at nice 10 beside busy neighbours a round of restores starved
   * (71 s for a 108 MiB site on a machine at load 35).
   */
  async function run(cmd: string[]): Promise<{ code: number; out: string; err: string }> {
    if (stopping.signal.aborted) return { code: 1, out: "", err: "HQ's box is stopping" };
    const end = await runChild(cmd, { timeoutMs: RESTORE_TIMEOUT_MS, signal: stopping.signal });
    const err = end.exit === "timeout" ? `${end.stderr}\nit took longer than ${RESTORE_TIMEOUT_MS / 60_000} min` : end.stderr;
    return { code: end.code ?? 1, out: end.stdout, err };
  }

  /** Stops the schedule and kills the restores and checks under way (their temporary files go at the next restore). */
  function stop(): void {
    if (timer) clearInterval(timer);
    timer = null;
    stopping.abort();
  }

  /**
   * The replica's list of WAL segments (`litestream wal`: generation, index, offset, size,
   * time of each): every upload adds a line, so an unchanged list means nothing new to restore.
   * Null when it cannot be listed (the restore then runs and says why).
   */
  async function listing(s: Site & { url: string }): Promise<string | null> {
    const res = await run([litestream, "wal", ...replicaArgs(s)]);
    return res.code === 0 && !/level=ERROR/.test(res.err) ? res.out : null;
  }

  /** The copy in use brought up to the replica in `tmp` from its new WAL segments (incremental.ts), or false. */
  async function applyNew(s: Site & { url: string }, r: SiteRecord, list: string | null, tmp: string): Promise<boolean> {
    if (deps.tuning?.incremental === false || !existsSync(copyPath(s.name))) return false;
    const plan = planApply({ url: s.url, position: r.position, before: r.restoredListing, now: list });
    if ("why" in plan) {
      deps.log(`chain: ${s.name}: restoring the whole copy: ${plan.why}`);
      return false;
    }
    clearTmp(tmp);
    const error = await applyToCopy({ run, apply: APPLY, copy: copyPath(s.name), tmp, segments: plan.segments });
    if (!error) return true;
    deps.log(`chain: ${s.name}: the new WAL segments could not be applied (${error}); restoring the whole copy`);
    clearTmp(tmp);
    return false;
  }

  /** `whole`: a full `litestream restore` even when the new segments could be applied (Restore now). */
  async function restoreOnce(s: Site, r: SiteRecord, listed?: string | null, whole = false): Promise<void> {
    if (!s.url) {
      r.lastError = "No replica of this site has arrived yet (is its box linked to HQ?)";
      return;
    }
    mkdirSync(dir, { recursive: true });
    // Listed before the restore: an upload during it changes the list, and the next round restores again.
    const gens = replicaGenerations(s.url);
    const list = listed !== undefined ? listed : await listing({ ...s, url: s.url });
    const tmp = join(dir, `.restoring-${s.name}.db`);
    let failure: string | null = null;
    let note: string | null = null;
    let lastWalFailure: string | null = null;
    const applied = !whole && (await applyNew({ ...s, url: s.url }, r, list, tmp));
    // Where the copy starts from: the kept copy's position, or the snapshot the restore took.
    let from: { generation: string; index: number } | null = applied ? r.position : null;
    for (let attempt = 1; !applied && attempt <= ATTEMPTS; attempt++) {
      clearTmp(tmp);
      const res = await run([litestream, "restore", "-o", tmp, ...replicaArgs({ ...s, url: s.url })]);
      if (res.code === 0 && existsSync(tmp)) {
        failure = null;
        from = restoredFrom(res.err);
        break;
      }
      // The same WAL failure twice: the newest segment is torn (a box that died uploading it).
      const wal = walFailure(res.err);
      if (wal && wal === lastWalFailure) {
        note = await restoreWithoutNewest({ ...s, url: s.url }, wal.split(" ")[0]!, list, tmp);
        if (note) {
          failure = null;
          break;
        }
      }
      lastWalFailure = wal;
      const why = explain(res.err || res.out, s.url);
      failure = why.message;
      if (!why.retry || attempt === ATTEMPTS || stopping.signal.aborted) break;
      r.retries++;
      await Bun.sleep(RETRY_MS * attempt);
    }
    if (failure) {
      clearTmp(tmp);
      r.lastError = failure;
      return;
    }
    const now = deps.clock.now();
    const day = businessDay(now);
    // quick_check at every restore; the full check (also every index entry against its row) at a site's first restore of a day.
    const full = deps.tuning?.fullCheck === "always" || !r.lastFullCheckAt || businessDay(new Date(r.lastFullCheckAt)) !== day;
    const res = await run([process.execPath, CHECK, tmp, day, full ? "full" : "quick"]);
    let check: CheckResult;
    try {
      check = JSON.parse(res.out) as CheckResult;
    } catch {
      check = { integrity: res.err.slice(0, 300) || `the check ended with ${res.code}`, last_data_at: null, takings_cents: 0 };
    }
    if (check.integrity !== "ok") {
      clearTmp(tmp);
      r.lastError = `The restored copy failed its integrity check (${check.integrity.slice(0, 200)}); the previous copy stays in use`;
      return;
    }
    const schema = check.schema ?? null;
    const totals = check.totals ?? null;
    // A copy that left a torn segment out is behind its listing: its next restore is whole.
    const position = note ? null : positionOf(from, list, gens);
    const lastFullCheckAt = full ? now.toISOString() : r.lastFullCheckAt;
    // rename(2) replaces the copy in one step: a reader sees the old file or the new, never half.
    renameSync(tmp, copyPath(s.name));
    // Written after the rename: a crash between the two leaves an older position beside a newer
    // copy, whose next apply re-applies segments it already holds (harmless), never the reverse.
    writeFileSync(infoPath(s.name), JSON.stringify({ schema, listing: list, totals, position, lastFullCheckAt } satisfies CopyInfo));
    r.schema = schema;
    r.restoredListing = list;
    r.position = position;
    r.lastFullCheckAt = lastFullCheckAt;
    if (applied) r.applied++;
    r.lastRestoredAt = now.toISOString();
    r.lastDataAt = check.last_data_at;
    r.takings = { day, cents: check.takings_cents };
    r.deposits = check.deposits ? { day, shops: check.deposits } : null;
    // The copy is still the site's record and stays in use; the finding is shown beside it.
    r.totals = totals;
    if (totals && !totals.ok) deps.log(`chain: ${s.name}: ${describeTotals(totals)}`);
    r.lastError = note;
    if (note) deps.log(`chain: ${s.name}: ${note}`);
    r.restores++;
  }

  /** The newest WAL segment torn: everything before it (torn.ts), or null (the failure stands). */
  async function restoreWithoutNewest(s: Site & { url: string }, generation: string, listed: string | null, tmp: string): Promise<string | null> {
    const wal = listed ?? (await listing(s));
    if (!wal) return null;
    clearTmp(tmp);
    return restoreBeforeTorn({
      run,
      litestream,
      replicaArgs: replicaArgs(s),
      url: s.url,
      keyPath: s.url.startsWith("sftp:") ? hq().sftpKey : null,
      generation,
      listing: wal,
      tmp,
      into: join(dir, `.replica-${s.name}`),
    });
  }

  /** Restores one site, or joins the restore of it already running. */
  function restore(name: string, listed?: string | null, whole = false): Promise<void> {
    const s = site(name);
    const r = record(s.name);
    if (!r.restoring) {
      r.restoring = restoreOnce(s, r, listed, whole)
        .catch((err) => {
          r.lastError = `The restore failed: ${err instanceof Error ? err.message : String(err)}`;
          deps.log(`chain: restore of ${s.name} failed`, err);
        })
        .finally(() => {
          r.restoring = null;
        });
    }
    return r.restoring;
  }

  function state(s: Site): SiteStateCents {
    const r = record(s.name);
    const now = deps.clock.now();
    const today = businessDay(now);
    return {
      site: s.name,
      replica: maskUrl(s.url),
      source: s.source,
      has_copy: existsSync(copyPath(s.name)),
      restoring: r.restoring !== null,
      last_restored_at: r.lastRestoredAt,
      last_data_at: r.lastDataAt,
      lag_seconds: r.lastDataAt ? Math.max(0, Math.round((now.getTime() - Date.parse(r.lastDataAt)) / 1000)) : null,
      last_error: r.lastError,
      today_takings: r.takings?.day === today ? r.takings.cents : 0,
      deposits: r.deposits?.day === today ? depositSums(r.deposits.day, r.deposits.shops) : null,
      paid_totals: r.totals ? { ok: r.totals.ok, count: r.totals.count, message: describeTotals(r.totals) } : null,
      restores: r.restores,
      retries: r.retries,
      schema: r.schema,
      schema_note: existsSync(copyPath(s.name)) ? schemaNote(r.schema, expected) : null,
      unchanged_rounds: r.unchanged,
      last_full_check_at: r.lastFullCheckAt,
      applied_restores: r.applied,
    };
  }

  /**
   * The copies to read: every site with one on HQ's schema version, or just `only` (404 if it
   * is not a site, 409 if it has no copy yet or its copy is on another version). A copy on
   * another version is never read with SQL written for this one.
   */
  function copies(only?: string): DbTarget[] {
    const list = only ? [site(only)] : sites();
    const present = list.filter((s) => existsSync(copyPath(s.name)));
    if (only && !present.length) throw conflict(`HQ has no copy of ${only} yet: restore it first`);
    const have = present.filter((s) => record(s.name).schema?.status === "current");
    if (only && !have.length) throw conflict(schemaNote(record(only).schema, expected) ?? `HQ cannot read ${only}'s copy`);
    return have.map((s) => ({ url: `file:${copyPath(s.name)}`, site: s.name }));
  }

  /**
   * Every site whose replica moved since its copy was restored, IRONBOX_HQ_RESTORE_PARALLEL at
   * a time (2: on two cores the second restore nearly doubles a round's throughput; each is
   * child processes and disk). A site with nothing new costs a listing, not a restore.
   */
  function restoreAll(): Promise<void> {
    round ??= (async () => {
      const queue = sites();
      const one = async (s: Site) => {
        const r = record(s.name);
        const list = s.url && !r.restoring ? await listing({ ...s, url: s.url }) : null;
        if (list !== null && list === r.restoredListing && existsSync(copyPath(s.name))) {
          r.unchanged++;
          return;
        }
        await restore(s.name, list);
      };
      const width = Math.min(hq().restoreParallel ?? 2, queue.length);
      await Promise.all(
        Array.from({ length: width }, async () => {
          for (let s = queue.shift(); s; s = queue.shift()) await one(s);
        }),
      );
    })().finally(() => {
      round = null;
    });
    return round;
  }

  return {
    enabled: () => deps.hq !== null,
    list: () => sites().map(state),
    /** Always a whole restore: asked for when something looks wrong, so nothing of the kept copy is reused. */
    async restoreNow(name: string): Promise<SiteStateCents> {
      await restore(name, undefined, true);
      return state(site(name));
    },
    restoreAll,
    /** Issue 35: the copies HQ can read (on HQ's schema version), for the public face's status links. */
    readableCopies: (): DbTarget[] => (deps.hq ? copies() : []),
    /** Issue 34: the copies the chain-wide journal reads (every readable one, or just `only`: 404/409 as the reports). */
    copiesOf: (only?: string): DbTarget[] => copies(only),
    report: (name: ReportName, query: ReportQuery, only: string | undefined, signal?: AbortSignal) =>
      deps.reports.siteReport(copies(only), name, query, signal),
    async statistics(only?: string): Promise<{ site: string; figures: HomeCents }[]> {
      const dbs = copies(only);
      if (!dbs.length) return [];
      const figures = await deps.reports.siteHome(dbs);
      return dbs.map((d, i) => ({ site: d.site!, figures: figures[i]! }));
    },
    /** The schedule: a round now and every IRONBOX_HQ_RESTORE_SECONDS (0: on demand only). Returns the stop. */
    start(): () => void {
      const every = hq().restoreEverySec;
      if (every > 0) {
        const tick = () => void restoreAll().catch((err) => deps.log("chain: restore round failed", err));
        tick();
        timer = setInterval(tick, every * 1000);
      }
      return stop;
    },
    stop,
  };
}

export type ChainService = ReturnType<typeof createChainService>;
