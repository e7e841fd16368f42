/**
 * The link's state, as one machine with one clock: what the supervisor (supervisor.ts) sees
 * of Litestream goes in as events (started, exited, a metrics answer or silence, a log line,
 * a probe of HQ), and out come the decisions (restart after so long, nudge, probe, kill a
 * stuck Litestream) and the health the screens show. No I/O and no timers here, so a test can
 * drive a whole outage or an idle afternoon with a clock it moves by hand.
 *
 * Phases: `stopped` (off, or the box is stopping) → `starting` (spawned, not answering yet) →
 * `running` (its metrics answer) → `waiting` (it exited; restarted after a back-off) →
 * `starting` … What is known of the link (positions, pending changes, errors) is kept across
 * restarts: they are one link.
 */
import { comparePositions, type LogLine, type Position, plainError, shippedPosition } from "../../../drivers/replication/litestream";
import type { Clock } from "../../platform/clock";
import type { LinkHealth, LinkPosition } from "./model";

export type Phase = "stopped" | "starting" | "running" | "waiting";

/** The first error text of a Litestream that died (cleared once it answers again). */
const STOPPED = "Litestream stopped";
/** No progress for this long while HQ answers: Litestream is taken to be stuck and restarted. */
const STALL_MS = 20_000;
/** The longest patience with a line that makes no progress (each fruitless restart doubles it). */
const MAX_STALL_MS = 30 * 60_000;
/**
 * Behind and quiet this long: HQ is probed, at most every PROBE_EVERY_MS (every
 * DOWN_PROBE_EVERY_MS once a probe found it silent, so its return is seen within a second).
 * Short enough that an outage of a few seconds is seen, so that its end can be acted on.
 */
const QUIET_MS = 3000;
const PROBE_EVERY_MS = 5000;
const DOWN_PROBE_EVERY_MS = 1000;
const MAX_BACKOFF_MS = 60_000;
/** A run that lasted this long was healthy: the next restart is quick again. */
const HEALTHY_RUN_MS = 60_000;
/** With Litestream gone this long (a crash loop), the appliance checkpoints again so the WAL stays bounded. */
const CHECKPOINT_HANDBACK_MS = 10 * 60_000;
/** A restarted Litestream that has shipped nothing this long gets a small write to ship (see nudge). */
const NUDGE_AFTER_MS = 3000;

interface Pending extends Position {
  /** When this local position was first seen: the lag is the oldest pending one's age. */
  at: number;
}

export function createLinkMachine(o: { clock: Clock; restartMs?: number; stallMs?: number }) {
  const now = () => o.clock.now().getTime();
  const firstBackoff = o.restartMs ?? 1000;
  // A test that idles a real Litestream past the patience shortens it (the patience is the same rule at any length).
  const patience = o.stallMs ?? STALL_MS;
  const s = {
    phase: "stopped" as Phase,
    restarts: 0,
    backoffMs: firstBackoff,
    startedAt: 0,
    /** When Litestream was last seen alive (or stopped): who checkpoints depends on it. */
    lastAliveAt: 0,
    shippedThisRun: false,
    nudged: false,
    // The watchdog: when the replica last moved (or was level), whether a snapshot upload is
    // under way, how long no progress is tolerated while HQ answers, when HQ was last probed.
    progressAt: 0,
    snapshotting: false,
    stallMs: patience,
    probedAt: 0,
    probing: false,
    /** When a probe last found HQ silent (0: not since the last progress). */
    hqDownAt: 0,
    /** Litestream could not read the replica's newest WAL segment: torn at HQ by an upload cut off. */
    tornAtHq: false,
    tornHits: 0,
    local: null as Position | null,
    shipped: null as Position | null,
    lastShippedAt: 0,
    /** Local positions seen and not yet at HQ, oldest first. */
    pending: [] as Pending[],
    /** Since when Litestream has not answered (null while it does): with nothing seen pending, the lag counts from there. */
    downSince: null as number | null,
    lastError: null as string | null,
    lastErrorAt: 0,
  };

  function fail(message: string, at = now()) {
    s.lastError = message;
    s.lastErrorAt = at;
  }

  /**
   * Whether HQ has position `p`: in the replica's generation, at or before what it has; of an
   * older generation, once the replica is in the box's current one (its snapshot holds all).
   */
  function covered(p: Position): boolean {
    const at = s.shipped;
    if (!at) return false;
    if (p.generation === at.generation) return comparePositions(p, at) <= 0;
    return at.generation === s.local?.generation;
  }

  function settle() {
    while (s.pending.length && covered(s.pending[0]!)) s.pending.shift();
  }

  return {
    phase: () => s.phase,
    restarts: () => s.restarts,

    /** Litestream was spawned (the first time, or again after `waiting`). */
    started() {
      if (s.phase === "waiting") s.restarts++;
      const t = now();
      Object.assign(s, { phase: "starting", startedAt: t, shippedThisRun: false, nudged: false, snapshotting: false, progressAt: t });
      s.downSince ??= t;
    },

    /** Litestream exited. Returns how long to wait before starting it again, or null when the link is stopping. */
    exited(code: number | null, stopping: boolean): number | null {
      const t = now();
      s.downSince ??= t;
      s.lastAliveAt = t;
      if (stopping) {
        s.phase = "stopped";
        return null;
      }
      s.phase = "waiting";
      fail(s.lastError ?? `${STOPPED} (exit ${code}); restarting`, t);
      if (t - s.startedAt > HEALTHY_RUN_MS || s.tornAtHq) s.backoffMs = firstBackoff;
      const wait = s.backoffMs;
      s.backoffMs = Math.min(s.backoffMs * 2, MAX_BACKOFF_MS);
      return wait;
    },

    /**
     * Whether Litestream, which just exited, stopped on a segment torn at HQ: it is then to start
     * a new generation (its local state removed: a full snapshot goes to HQ, the torn one is
     * left behind). Asked once per exit.
     */
    takeTornAtHq(): boolean {
      const torn = s.tornAtHq;
      s.tornAtHq = false;
      s.tornHits = 0;
      return torn;
    },
    /** Litestream is stuck on a segment torn at HQ (it retries for ever): to be killed. */
    tornAtHq: () => s.tornAtHq,

    /** The link was stopped on purpose (settings saved, box stopping). */
    stopped(hadChild: boolean) {
      s.phase = "stopped";
      if (hadChild) s.lastAliveAt = now();
    },

    /** Forgets what was known of the link (new settings: maybe another replica). */
    reset() {
      Object.assign(s, { shipped: null, local: null, pending: [], downSince: null, lastError: null, lastErrorAt: 0, backoffMs: firstBackoff });
    },

    /** A log line of Litestream's. Returns what the box's log should say of it, if anything. */
    line(l: LogLine): string | null {
      if (l.level === "ERROR" || l.level === "WARN") {
        const raw = l.attrs.error ?? l.msg;
        // Litestream 0.3.13 reads the replica's newest segment to know where it is; one torn by an
        // upload cut off (an outage, a kill: its SFTP client writes in place) stops it for good.
        // Three times running (it retries every sync): not an EOF of a connection going away.
        if (/cannot determine replica position: .*\bEOF\b/i.test(raw) && ++s.tornHits >= 3) s.tornAtHq = true;
        fail(plainError(raw));
        return `litestream ${l.level.toLowerCase()}: ${l.msg}: ${raw}`;
      }
      if (l.msg === "write snapshot") s.snapshotting = true;
      else if (l.msg === "sync: new generation") return `new generation ${l.attrs.generation ?? "?"} (${l.attrs.reason ?? "?"}): a full snapshot goes to HQ`;
      const at = shippedPosition(l);
      if (!at) return null;
      if (l.msg === "snapshot written") s.snapshotting = false;
      const t = now();
      s.shipped = at;
      // The box has at least what it shipped (its shadow WAL is read only at each poll).
      if (s.local?.generation !== at.generation || comparePositions(s.local, at) < 0) s.local = at;
      s.shippedThisRun = true;
      s.tornHits = 0;
      s.lastShippedAt = t;
      s.lastError = null;
      s.progressAt = t;
      s.stallMs = patience;
      s.hqDownAt = 0;
      settle();
      return null;
    },

    /**
     * Litestream's metrics answered, and the box's own position is `local` (its shadow WAL).
     * Returns true when a small write should be made (`nudge`): a restarted Litestream that
     * finds the replica level uploads nothing, and only an upload says where the replica is.
     */
    answered(local: Position | null): boolean {
      const t = now();
      s.phase = "running";
      s.lastAliveAt = t;
      s.downSince = null;
      // Running again: that it had stopped is no longer news.
      if (s.lastError?.startsWith(STOPPED)) s.lastError = null;
      if (local) {
        s.local = local;
        const last = s.pending[s.pending.length - 1];
        const seen = last && last.generation === local.generation && comparePositions(last, local) === 0;
        if (!seen && !covered(local)) s.pending.push({ ...local, at: t });
      }
      settle();
      if (!s.pending.length) (s.progressAt = t), (s.stallMs = patience), (s.hqDownAt = 0);
      if (local && !s.shippedThisRun && !s.nudged && t - s.startedAt > NUDGE_AFTER_MS) return (s.nudged = true);
      return false;
    },

    /** The metrics did not answer (just started, or stuck). */
    silent() {
      if (s.phase === "running") s.phase = "starting";
      s.downSince ??= now();
    },

    /**
     * Behind with no progress for a while: time to ask whether HQ is there at all? Returns the
     * quiet time when a probe should run now (the caller then reports `probed`).
     */
    probeDue(hasUrl: boolean): number | null {
      const t = now();
      if (s.probing || !hasUrl || s.phase === "stopped" || s.phase === "waiting" || !s.pending.length) return null;
      const quiet = t - Math.max(s.progressAt, s.pending[0]!.at);
      if (quiet < QUIET_MS || t - s.probedAt < (s.hqDownAt ? DOWN_PROBE_EVERY_MS : PROBE_EVERY_MS)) return null;
      s.probing = true;
      s.probedAt = t;
      return quiet;
    },

    /**
     * What the probe found. HQ silent: the link is down, in those words (an SFTP upload to a
     * server that went away can hang without a word). HQ answers again after a probe found it
     * silent, and nothing has moved since: Litestream 0.3.13 has no keepalive and hangs on the
     * connection the outage broke, so it is restarted at once (`back`; the replica and the
     * shadow WAL stay, so it goes on from where it was). HQ answers, no outage seen, and still
     * no progress for the patience: Litestream is stuck and is restarted too (`restart`); each
     * such restart that brings no progress doubles the patience (a slow line uploading a big
     * segment is not stuck).
     */
    probed(up: boolean, quiet: number): "restart" | "back" | null {
      s.probing = false;
      if (!up) {
        if (!s.lastError || s.lastErrorAt < s.probedAt - quiet) fail("HQ's server is not answering");
        s.hqDownAt = s.probedAt;
        return null;
      }
      if (s.hqDownAt) {
        s.hqDownAt = 0;
        if (s.phase === "stopped" || s.phase === "waiting") return null;
        s.backoffMs = firstBackoff;
        return "back";
      }
      if (quiet < s.stallMs * (s.snapshotting ? 10 : 1) || s.phase === "stopped" || s.phase === "waiting") return null;
      s.stallMs = Math.min(s.stallMs * 2, MAX_STALL_MS);
      s.backoffMs = firstBackoff;
      return "restart";
    },

    /** Whether Litestream checkpoints now: while it runs, or died less than ten minutes ago. */
    controlsCheckpoints: (alive: boolean) => alive || now() - s.lastAliveAt < CHECKPOINT_HANDBACK_MS,

    health(warn: number): Omit<LinkHealth, "warn_after_seconds"> & { running: boolean } {
      const running = s.phase === "running";
      const since = s.pending[0]?.at ?? s.downSince;
      // In tenths of a second, and never 0 while something is pending: 0 means level.
      const lag = since === null ? 0 : Math.max(0.1, Math.round((now() - since) / 100) / 10);
      const failing = !!s.lastError && s.lastErrorAt >= s.lastShippedAt;
      const state = !running || failing ? "down" : lag > warn ? "lagging" : "ok";
      const lastError = s.lastError ?? (running ? null : "Litestream is starting");
      return {
        state,
        lag_seconds: lag,
        last_error: state === "ok" ? null : lastError,
        last_shipped_at: s.lastShippedAt ? new Date(s.lastShippedAt).toISOString() : null,
        running,
      };
    },

    positions: (): { shipped: LinkPosition | null; local: LinkPosition | null } => ({ shipped: s.shipped, local: s.local }),
    lastShippedAt: () => (s.lastShippedAt ? new Date(s.lastShippedAt).toISOString() : null),
  };
}

export type LinkMachine = ReturnType<typeof createLinkMachine>;
