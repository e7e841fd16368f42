/**
 * The link to HQ: supervises Litestream, which streams this box's database to HQ's storage
 * (SFTP or S3), and reads its state. Litestream runs as a child process with a generated
 * configuration in the data folder; when it dies it is started again with back-off. Its
 * state comes from its Prometheus metrics (the box's own WAL position against the replica's)
 * and its log lines (what was shipped, what failed). Nothing here is on a request's path:
 * the counter never waits for HQ.
 */
import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import {
  LITESTREAM_BIN,
  parseLogLine,
  parseMetrics,
  parsePosition,
  plainError,
  replicaOnlyConfig,
  replicateConfig,
} from "../../../drivers/replication/litestream";
import { MOUNTED_DISK_ROOTS } from "../../domain/disks";
import type { Clock } from "../../platform/clock";
import type { Config } from "../../platform/config";
import { conflict, unprocessable } from "../../platform/errors";
import { audit } from "../audit/audit";
import type { EmployeeCaller } from "../auth/caller";
import type { LinkCheck, LinkHealth, LinkPosition, LinkSettingsBody, LinkState } from "./model";

const SETTINGS_KEY = "hqlink";
export const KEY_FILE = "hq-link.key";
const CONFIG_FILE = "litestream.yml";
const PID_FILE = "litestream.pid";
export const DEFAULT_WARN_SECONDS = 300;
/** With Litestream gone this long (a crash loop), the appliance checkpoints again so the WAL stays bounded. */
const STOPPED = "Litestream stopped";
/** No progress for this long while HQ answers: Litestream is taken to be stuck and restarted. */
const STALL_MS = 20_000;
const CHECKPOINT_HANDBACK_MS = 10 * 60_000;

/**
 * Where a file:// replica set on the screen may be: mounted disks (the unit's ReadWritePaths=),
 * and the temp folder (tests; private to the service under the unit's PrivateTmp=).
 */
const FILE_ROOTS = () => [...MOUNTED_DISK_ROOTS, resolve(tmpdir())];

interface Stored {
  url?: string | null;
  site?: string;
  warn_after_seconds?: number;
}

export interface HqLinkDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, "dataDir" | "databaseUrl" | "site" | "replica">;
  log: (m: string, e?: unknown) => void;
  /** How often the metrics are read; the back-off before the first restart (doubles to 60 s). */
  pollMs?: number;
  restartMs?: number;
  litestream?: string;
}

/** A free loopback port for Litestream's metrics (asked of the kernel, then handed over). */
function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.on("error", rej);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => res(port));
    });
  });
}

/** Does something accept TCP connections at host:port within `ms`? */
function answers(host: string, port: number, ms: number): Promise<boolean> {
  return new Promise((res) => {
    const s = createConnection({ host, port });
    const done = (ok: boolean) => (s.destroy(), res(ok));
    s.setTimeout(ms, () => done(false));
    s.on("connect", () => done(true));
    s.on("error", () => done(false));
  });
}

/** Where a replica URL connects to (for the "is HQ answering" probe); null for a local folder. */
function endpointOf(url: string): { host: string; port: number } | null {
  const u = new URL(url);
  if (u.protocol === "sftp:") return { host: u.hostname, port: Number(u.port || 22) };
  if (u.protocol === "s3:") {
    const e = u.searchParams.get("endpoint");
    if (!e) return { host: "s3.amazonaws.com", port: 443 };
    const eu = new URL(e);
    return { host: eu.hostname, port: Number(eu.port || (eu.protocol === "https:" ? 443 : 80)) };
  }
  return null;
}

const samePos = (a: { index: number; offset: number } | null, b: { index: number; offset: number } | null) =>
  !!a && !!b && a.index === b.index && a.offset === b.offset;

export function createHqLinkService(deps: HqLinkDeps) {
  const { db, clock, config, log } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const bin = deps.litestream ?? LITESTREAM_BIN;
  const dbPath = config.databaseUrl.startsWith("file:") ? config.databaseUrl.slice("file:".length) : null;
  const keyFile = join(config.dataDir, KEY_FILE);
  const configFile = join(config.dataDir, CONFIG_FILE);
  const pidFile = join(config.dataDir, PID_FILE);

  let stored: Stored = {};
  let child: ReturnType<typeof Bun.spawn> | null = null;
  let stopping = true;
  let restartTimer: ReturnType<typeof setTimeout> | null = null;
  let pollTimer: ReturnType<typeof setInterval> | null = null;
  let backoffMs = deps.restartMs ?? 1000;
  let metricsPort = 0;
  let startedAt = 0;
  let lastAliveAt = 0;
  let probing = false;
  let nudged = false;
  // The watchdog: when the replica last moved (or was level), whether a snapshot upload is under
  // way, how long no progress is tolerated while HQ answers, and when HQ was last probed.
  let progressMs = 0;
  let snapshotting = false;
  let stallMs = STALL_MS;
  let probedMs = 0;
  // What we know of the link; kept across restarts (they are one link). Durations and their
  // order use the monotonic *Ms fields; the injected clock only stamps what the screen shows.
  const s = {
    restarts: 0,
    running: false,
    generation: null as string | null,
    local: null as { index: number; offset: number } | null,
    shipped: null as { index: number; offset: number } | null,
    lastShippedAt: null as Date | null,
    lastShippedMs: 0,
    /** Local positions seen and not yet at HQ, oldest first, with when they were first seen: the lag is the oldest's age. */
    pending: [] as { index: number; offset: number; at: number }[],
    /** Since when Litestream has not answered (null while it does): with nothing seen pending, the lag counts from there. */
    downSinceMs: null as number | null,
    lastError: null as string | null,
    lastErrorMs: 0,
  };

  function settings() {
    const r = config.replica;
    return {
      url: r.url ?? stored.url ?? null,
      keyPath: r.keyPath ?? (existsSync(keyFile) ? keyFile : null),
      site: r.siteFromEnv ? config.site : (stored.site ?? config.site),
      warn: r.lagWarnSeconds ?? stored.warn_after_seconds ?? DEFAULT_WARN_SECONDS,
      presets: { url: !!r.url, key: !!r.keyPath, site: r.siteFromEnv, warn_after_seconds: r.lagWarnSeconds !== null },
    };
  }

  async function load() {
    const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, SETTINGS_KEY) });
    try {
      stored = row ? (JSON.parse(row.value) as Stored) : {};
    } catch {
      stored = {};
      log(`box_settings "${SETTINGS_KEY}": not JSON; the link stays off until it is saved again`);
    }
  }

  function fail(message: string) {
    s.lastError = message;
    s.lastErrorMs = performance.now();
  }

  function onLine(line: string) {
    const l = parseLogLine(line);
    if (!l) return;
    if (l.level === "ERROR" || l.level === "WARN") {
      const raw = l.attrs.error ?? l.msg;
      fail(plainError(raw));
      log(`hqlink: litestream ${l.level.toLowerCase()}: ${l.msg}: ${raw}`);
    } else if (l.msg === "write snapshot") {
      snapshotting = true;
    } else if (l.msg === "wal segment written" || l.msg === "snapshot written") {
      if (l.msg === "snapshot written") snapshotting = false;
      s.lastShippedAt = clock.now();
      s.lastShippedMs = performance.now();
      const p = parsePosition(l.attrs.position);
      if (p) s.generation = p.generation;
      s.lastError = null;
    } else if (l.msg === "sync: new generation") {
      s.generation = l.attrs.generation ?? s.generation;
      // Positions of another generation do not compare: what is pending is the new snapshot.
      s.pending = s.pending.slice(-1);
      log(`hqlink: new generation ${s.generation} (${l.attrs.reason ?? "?"}): a full snapshot goes to HQ`);
    }
  }

  async function pump(stream: ReadableStream<Uint8Array> | null | undefined) {
    if (!stream) return;
    const decoder = new TextDecoder();
    let rest = "";
    const reader = stream.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) {
      rest += decoder.decode(r.value, { stream: true });
      const lines = rest.split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) onLine(line);
    }
    if (rest) onLine(rest);
  }

  /** A Litestream left over from a previous run of the box (killed -9) would replicate twice. */
  function killOrphan() {
    if (!existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, "utf8"));
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (cmd.includes("litestream") && cmd.includes(configFile)) process.kill(pid, "SIGKILL");
    } catch {
      // not running any more
    }
    rmSync(pidFile, { force: true });
  }

  async function spawn() {
    const set = settings();
    if (stopping || !set.url || !dbPath) return;
    metricsPort = await freePort();
    writeFileSync(configFile, replicateConfig({ dbPath, target: { url: set.url, keyPath: set.keyPath }, metricsAddr: `127.0.0.1:${metricsPort}` }), {
      mode: 0o600,
    });
    chmodSync(configFile, 0o600);
    killOrphan();
    startedAt = Date.now();
    nudged = false;
    snapshotting = false;
    progressMs = performance.now();
    // Background work: below the counter in CPU priority (nice exec's it: same pid), and one core at
    // most (GOMAXPROCS) for compressing a first snapshot of a large database.
    const c = Bun.spawn(["nice", "-n", "10", bin, "replicate", "-config", configFile, "-no-expand-env"], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, GOMAXPROCS: "1" },
    });
    child = c;
    writeFileSync(pidFile, String(c.pid));
    s.downSinceMs ??= performance.now();
    void pump(c.stdout as ReadableStream<Uint8Array>);
    void pump(c.stderr as ReadableStream<Uint8Array>);
    void c.exited.then((code) => {
      if (child !== c) return;
      child = null;
      s.running = false;
      s.downSinceMs ??= performance.now();
      lastAliveAt = Date.now();
      if (stopping) return;
      fail(s.lastError ?? `${STOPPED} (exit ${code}); restarting`);
      // A run that lasted a minute was healthy: start again soon. A crash loop backs off to a minute.
      if (Date.now() - startedAt > 60_000) backoffMs = deps.restartMs ?? 1000;
      log(`hqlink: litestream exited (${code}); restarting in ${backoffMs} ms`);
      restartTimer = setTimeout(() => {
        restartTimer = null;
        s.restarts++;
        void spawn().catch((e) => log("hqlink: could not start litestream", e));
      }, backoffMs);
      backoffMs = Math.min(backoffMs * 2, 60_000);
    });
  }

  async function poll() {
    if (!child) return;
    try {
      const r = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(Math.max(200, pollMs - 100)) });
      const m = parseMetrics(await r.text());
      s.running = true;
      lastAliveAt = Date.now();
      // Running again: that it had stopped is no longer news.
      if (s.lastError?.startsWith(STOPPED)) s.lastError = null;
      s.local = m.local;
      if (!samePos(s.shipped, m.replica) || samePos(m.local, m.replica)) (progressMs = performance.now()), (stallMs = STALL_MS);
      s.shipped = m.replica;
      s.downSinceMs = null;
      const last = s.pending[s.pending.length - 1];
      if (m.local && !samePos(m.local, last ?? null)) s.pending.push({ ...m.local, at: performance.now() });
      // Shipped: every pending position at or before the replica's.
      const at = m.replica;
      while (at && s.pending.length && (s.pending[0]!.index < at.index || (s.pending[0]!.index === at.index && s.pending[0]!.offset <= at.offset)))
        s.pending.shift();
      if (m.local && !m.replica && !nudged && Date.now() - startedAt > 3000) await nudge();
    } catch {
      // Not listening yet (just started) or stuck: running only once it answers.
      s.running = false;
      s.downSinceMs ??= performance.now();
    }
    if (dbPath && !s.generation) {
      try {
        s.generation = readFileSync(join(dirname(dbPath), `.${basename(dbPath)}-litestream`, "generation"), "utf8").trim() || null;
      } catch {
        // no generation yet
      }
    }
    await watch();
  }

  /**
   * A restarted Litestream that finds the replica level with the box uploads nothing, and only
   * an upload tells its metrics where the replica is. One small write (the box's heartbeat,
   * which HQ can read too) gives it something to ship.
   */
  async function nudge() {
    nudged = true;
    const value = clock.now().toISOString();
    await db
      .insert(boxSettings)
      .values({ key: "hqlink_heartbeat", value })
      .onConflictDoUpdate({ target: boxSettings.key, set: { value } })
      .catch((e) => log("hqlink: heartbeat write failed", e));
  }

  /**
   * Behind with no progress for a while: is HQ there at all? If not, say so (an SFTP upload to a
   * server that went away can hang without a word). If HQ answers and Litestream still makes no
   * progress, it is stuck on the dead connection: it is restarted (the replica and the shadow
   * WAL stay, so it goes on from where it was). Each restart that brings no progress doubles the
   * patience (a slow line uploading a big segment is not stuck), up to half an hour.
   */
  async function watch() {
    const url = settings().url;
    const now = performance.now();
    if (probing || !url || !child || !s.pending.length) return;
    const quiet = now - Math.max(progressMs, s.pending[0]!.at);
    if (quiet < 10_000 || now - probedMs < 5000) return;
    const ep = endpointOf(url);
    probing = true;
    probedMs = now;
    try {
      const up = ep ? await answers(ep.host, ep.port, 3000) : true;
      if (!up) {
        if (!s.lastError || s.lastErrorMs < now - quiet) fail("HQ's server is not answering");
        return;
      }
      if (quiet < stallMs * (snapshotting ? 10 : 1) || !child) return;
      log(`hqlink: no progress for ${Math.round(quiet / 1000)} s while HQ answers: restarting Litestream`);
      stallMs = Math.min(stallMs * 2, 30 * 60_000);
      backoffMs = deps.restartMs ?? 1000;
      child.kill("SIGKILL");
    } finally {
      probing = false;
    }
  }

  async function start() {
    await load();
    stopping = false;
    pollTimer ??= setInterval(() => void poll(), pollMs);
    pollTimer.unref?.();
    await spawn();
  }

  async function stop() {
    stopping = true;
    if (restartTimer) clearTimeout(restartTimer), (restartTimer = null);
    if (pollTimer) clearInterval(pollTimer), (pollTimer = null);
    const c = child;
    child = null;
    s.running = false;
    if (!c) return;
    lastAliveAt = Date.now();
    // Litestream ships what it has on SIGTERM; a write to a vanished HQ can hang, so not for long.
    c.kill("SIGTERM");
    const ended = await Promise.race([c.exited.then(() => true), Bun.sleep(3000).then(() => false)]);
    if (!ended) c.kill("SIGKILL"), await c.exited;
    rmSync(pidFile, { force: true });
  }

  const position = (p: { index: number; offset: number } | null): LinkPosition | null => (p ? { generation: s.generation, ...p } : null);

  function health(): LinkHealth {
    const set = settings();
    const base = { warn_after_seconds: set.warn, last_shipped_at: s.lastShippedAt?.toISOString() ?? null };
    if (!set.url) return { ...base, state: "off", lag_seconds: null, last_error: null };
    if (!dbPath) return { ...base, state: "down", lag_seconds: null, last_error: "The database is not a local file: Litestream cannot ship it" };
    const since = s.pending[0]?.at ?? s.downSinceMs;
    const lag = since === null ? 0 : Math.round((performance.now() - since) / 100) / 10;
    const failing = !!s.lastError && s.lastErrorMs >= s.lastShippedMs;
    const state = !s.running || failing ? "down" : lag > set.warn ? "lagging" : "ok";
    const lastError = s.lastError ?? (s.running ? null : "Litestream is starting");
    return { ...base, state, lag_seconds: lag, last_error: state === "ok" ? null : lastError };
  }

  function state(): LinkState {
    const set = settings();
    let url = set.url;
    if (url) {
      const u = new URL(url);
      u.password = "";
      url = u.toString();
    }
    return {
      ...health(),
      running: s.running,
      restarts: s.restarts,
      shipped: position(s.shipped),
      local: position(s.local),
      settings: { url, site: set.site, key_set: !!set.keyPath, warn_after_seconds: set.warn, presets: set.presets },
    };
  }

  async function restart() {
    await stop();
    Object.assign(s, { running: false, shipped: null, local: null, pending: [], downSinceMs: null, lastError: null, lastErrorMs: 0, generation: null });
    backoffMs = deps.restartMs ?? 1000;
    await start();
  }

  async function save(caller: EmployeeCaller, body: LinkSettingsBody): Promise<LinkState> {
    const set = settings();
    const preset = (field: keyof typeof set.presets, env: string, given: unknown) => {
      if (given !== undefined && set.presets[field])
        throw conflict(`The ${field.replaceAll("_", " ")} is set by the box's environment (${env}): change it there`);
    };
    preset("url", "IRONBOX_REPLICA_URL", body.url);
    preset("key", "IRONBOX_REPLICA_KEY", body.key);
    preset("site", "IRONBOX_SITE_NAME", body.site);
    preset("warn_after_seconds", "IRONBOX_LINK_LAG_WARN_SECONDS", body.warn_after_seconds);
    if (body.url?.startsWith("file:")) {
      // A folder on this box (a NAS or USB disk mount) is written as root: only under these roots.
      const folder = resolve(decodeURIComponent(new URL(body.url).pathname));
      if (!FILE_ROOTS().some((root) => folder.startsWith(`${root}/`)))
        throw unprocessable(`url: a file:// replica set here must be under ${FILE_ROOTS().join(", ")} (any folder can be set in IRONBOX_REPLICA_URL)`);
    }
    const next: Stored = { ...stored };
    if (body.url !== undefined) next.url = body.url;
    if (body.site !== undefined) next.site = body.site;
    if (body.warn_after_seconds !== undefined) next.warn_after_seconds = body.warn_after_seconds;
    // The key is written whole beside the old one, and takes its place once the change and its
    // audit row are committed: a half-written key is never read, nor a key replaced unaudited. 0600: only the box reads it.
    const keyTmp = `${keyFile}.tmp`;
    if (body.key !== undefined) {
      writeFileSync(keyTmp, `${body.key.trim()}\n`, { mode: 0o600 });
      chmodSync(keyTmp, 0o600);
    }
    await db
      .transaction(async (tx) => {
        await tx
          .insert(boxSettings)
          .values({ key: SETTINGS_KEY, value: JSON.stringify(next) })
          .onConflictDoUpdate({ target: boxSettings.key, set: { value: JSON.stringify(next) } });
        // The audit names what changed, never the key.
        await audit(tx, clock.now(), caller, "update", "hq_link", null, {
          ...(body.url !== undefined ? { url: body.url } : {}),
          ...(body.site !== undefined ? { site: body.site } : {}),
          ...(body.warn_after_seconds !== undefined ? { warn_after_seconds: body.warn_after_seconds } : {}),
          ...(body.key !== undefined ? { key: "replaced" } : {}),
        });
      })
      .catch((err) => {
        rmSync(keyTmp, { force: true });
        throw err;
      });
    if (body.key !== undefined) renameSync(keyTmp, keyFile);
    stored = next;
    await restart();
    return state();
  }

  /** Tries HQ now: lists the replica's snapshots with the current settings (connects and logs in). */
  /** One check at a time: a second Check pressed meanwhile (another tablet) gets the same answer. */
  let checking: Promise<LinkCheck> | null = null;
  const check = (): Promise<LinkCheck> => (checking ??= runCheck().finally(() => (checking = null)));

  async function runCheck(): Promise<LinkCheck> {
    const set = settings();
    if (!set.url || !dbPath) return { ok: false, message: "The link is off: no replica URL is set" };
    const cfg = join(config.dataDir, "litestream-check.yml");
    writeFileSync(cfg, replicaOnlyConfig({ dbPath, target: { url: set.url, keyPath: set.keyPath } }), { mode: 0o600 });
    const c = Bun.spawn([bin, "snapshots", "-config", cfg, "-no-expand-env", dbPath], { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => c.kill("SIGKILL"), 20_000);
    const [out, err, code] = await Promise.all([new Response(c.stdout).text(), new Response(c.stderr).text(), c.exited]);
    clearTimeout(timer);
    rmSync(cfg, { force: true });
    if (code === null || c.signalCode) return { ok: false, message: "HQ's server is not answering" };
    // `litestream snapshots` logs what went wrong and still exits 0: its ERROR line is the answer.
    const error = `${err}\n${out}`
      .split("\n")
      .map(parseLogLine)
      .find((l) => l?.level === "ERROR");
    if (code !== 0 || error) {
      const raw = error ? (error.attrs.error ?? error.msg) : ((err || out).trim().split("\n").pop() ?? "");
      log(`hqlink: check failed: ${raw}`);
      return { ok: false, message: plainError(raw) };
    }
    const snapshots = out.trim().split("\n").length - 1;
    return { ok: true, message: `HQ's storage answered: ${snapshots} snapshot${snapshots === 1 ? "" : "s"} of this box there` };
  }

  return {
    start,
    stop,
    health,
    state,
    save,
    check,
    /** Litestream's process id (tests kill it to see it restarted). */
    pid: () => child?.pid ?? null,
    /**
     * Whether Litestream checkpoints the WAL now (the appliance's checkpointer then stands aside):
     * while the link is on and Litestream runs, or died less than ten minutes ago.
     */
    controlsCheckpoints: () => !!settings().url && !!dbPath && (!!child || Date.now() - lastAliveAt < CHECKPOINT_HANDBACK_MS),
  };
}

export type HqLinkService = ReturnType<typeof createHqLinkService>;
