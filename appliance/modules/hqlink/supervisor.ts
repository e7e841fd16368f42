/**
 * Litestream's process: writes its configuration, starts it (at nice 10, one core), reads its
 * log lines and, every poll, its metrics and the box's shadow WAL position, and carries out
 * what the link's machine (machine.ts) decides: restart after a back-off, nudge, probe HQ,
 * kill a stuck Litestream. A Litestream left running by a box killed with -9 is found by its
 * pid file and stopped before a new one starts.
 */
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { parseLogLine, parseMetrics, replicateConfig, shadowPosition } from "../../../drivers/replication/litestream";
import { type Child, spawnChild } from "../../platform/child";
import type { LinkMachine } from "./machine";
import { answers, endpointOf, freePort } from "./net";
import type { LinkSettings } from "./settings";

const CONFIG_FILE = "litestream.yml";
const PID_FILE = "litestream.pid";

/**
 * Whether a Litestream that a box started on this data dir runs now (its pid file names a live
 * litestream process). Then it alone checkpoints the database: another process writing in bulk
 * (the import) must not checkpoint behind its back (README "Who checkpoints when").
 */
export function litestreamAlive(dataDir: string): boolean {
  try {
    const pid = Number(readFileSync(join(dataDir, PID_FILE), "utf8"));
    return pid > 0 && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("litestream");
  } catch {
    return false;
  }
}

export function createSupervisor(o: {
  machine: LinkMachine;
  settings: () => LinkSettings;
  dataDir: string;
  dbPath: string | null;
  bin: string;
  pollMs: number;
  log: (m: string, e?: unknown) => void;
  /** One small write for Litestream to ship (see machine.answered). */
  nudge: () => Promise<void>;
}) {
  const { machine: m } = o;
  const configFile = join(o.dataDir, CONFIG_FILE);
  const pidFile = join(o.dataDir, PID_FILE);
  let child: Child | null = null;
  let stopping = true;
  let metricsPort = 0;
  let restartTimer: ReturnType<typeof setTimeout> | null = null;
  let pollTimer: ReturnType<typeof setInterval> | null = null;

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

  function onLine(line: string) {
    const l = parseLogLine(line);
    const said = l ? m.line(l) : null;
    if (said) o.log(`hqlink: ${said}`);
    // Stuck for good on a segment torn at HQ: stopped, and restarted on a new generation (spawn's exit handler).
    if (m.tornAtHq() && child) child.kill("SIGKILL");
  }

  async function spawn() {
    const set = o.settings();
    if (stopping || !set.url || !o.dbPath) return;
    metricsPort = await freePort();
    writeFileSync(configFile, replicateConfig({ dbPath: o.dbPath, target: { url: set.url, keyPath: set.keyPath }, metricsAddr: `127.0.0.1:${metricsPort}` }), {
      mode: 0o600,
    });
    chmodSync(configFile, 0o600);
    killOrphan();
    // Background work: below the counter in CPU priority, and one core at most (GOMAXPROCS)
    // for compressing a first snapshot of a large database.
    const c = spawnChild([o.bin, "replicate", "-config", configFile, "-no-expand-env"], {
      nice: 10,
      env: { ...process.env, GOMAXPROCS: "1" },
      onLine,
    });
    child = c;
    writeFileSync(pidFile, String(c.pid));
    m.started();
    void c.ended.then((end) => {
      if (child !== c) return;
      child = null;
      const wait = m.exited(end.code, stopping);
      if (wait === null) return;
      if (m.takeTornAtHq() && o.dbPath) {
        // Its local state gone, Litestream starts a new generation and never reads the torn one.
        rmSync(join(dirname(o.dbPath), `.${basename(o.dbPath)}-litestream`), { recursive: true, force: true });
        o.log("hqlink: the newest WAL segment at HQ is torn (an upload cut off): a new generation starts, a full snapshot goes to HQ");
      }
      o.log(`hqlink: litestream exited (${end.code ?? end.exit}); restarting in ${wait} ms`);
      restartTimer = setTimeout(() => {
        restartTimer = null;
        void spawn().catch((e) => o.log("hqlink: could not start litestream", e));
      }, wait);
    });
  }

  async function poll() {
    if (!child) return;
    try {
      const r = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(Math.max(200, o.pollMs - 100)) });
      parseMetrics(await r.text());
      // Where the box is, as Litestream means it (generation, segment, offset in it): read from
      // its shadow WAL, since the metrics give the segment's index but only the bytes of all
      // the segments it keeps.
      if (m.answered(o.dbPath ? shadowPosition(o.dbPath) : null)) await o.nudge();
    } catch {
      // Not listening yet (just started) or stuck: running only once it answers.
      m.silent();
    }
    await watch();
  }

  async function watch() {
    const url = o.settings().url;
    const quiet = child ? m.probeDue(!!url) : null;
    if (quiet === null || !url) return;
    const ep = endpointOf(url);
    const up = ep ? await answers(ep.host, ep.port, 3000) : true;
    const decision = m.probed(up, quiet);
    if (!decision || !child) return;
    o.log(
      decision === "back"
        ? "hqlink: HQ answers again after an outage and nothing has moved since: restarting Litestream (its connection went with the outage)"
        : `hqlink: no progress for ${Math.round(quiet / 1000)} s while HQ answers: restarting Litestream`,
    );
    child.kill("SIGKILL");
  }

  return {
    async start() {
      stopping = false;
      pollTimer ??= setInterval(() => void poll(), o.pollMs);
      pollTimer.unref?.();
      await spawn();
    },
    async stop() {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer), (restartTimer = null);
      if (pollTimer) clearInterval(pollTimer), (pollTimer = null);
      const c = child;
      child = null;
      m.stopped(!!c);
      if (!c) return;
      // Litestream ships what it has on SIGTERM; a write to a vanished HQ can hang, so not for long.
      c.kill("SIGTERM");
      const ended = await Promise.race([c.ended.then(() => true), Bun.sleep(3000).then(() => false)]);
      if (!ended) c.kill("SIGKILL"), await c.ended;
      rmSync(pidFile, { force: true });
    },
    alive: () => child !== null,
    pid: () => child?.pid ?? null,
  };
}
