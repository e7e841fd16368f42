/**
 * The link to HQ: supervises Litestream, which streams this box's database to HQ's storage
 * (SFTP or S3), and says how the link stands. The pieces: settings.ts (what is set, and its
 * audited change), machine.ts (the link's state: one machine, one clock), supervisor.ts
 * (Litestream's process, its log and metrics), check.ts (Check on the screen). Nothing here
 * is on a request's path: the counter never waits for HQ.
 */
import { boxSettings } from "../../../db/schema";
import type { Db } from "../../../db/client";
import { LITESTREAM_BIN } from "../../../drivers/replication/litestream";
import { type Clock, monotonicClock } from "../../platform/clock";
import type { Config } from "../../platform/config";
import type { EmployeeCaller } from "../auth/caller";
import { checkLink } from "./check";
import { createLinkMachine } from "./machine";
import type { LinkCheck, LinkHealth, LinkSettingsBody, LinkState } from "./model";
import { createLinkSettings } from "./settings";
import { createSupervisor } from "./supervisor";

export { DEFAULT_WARN_SECONDS, KEY_FILE } from "./settings";

export interface HqLinkDeps {
  db: Db;
  /** The box's clock: the audit row of a change, the heartbeat's value. */
  clock: Clock;
  /** The link's one clock: lag, back-off, patience and the times shown (real time, monotonic, unless a test drives it). */
  linkClock?: Clock;
  config: Pick<Config, "dataDir" | "databaseUrl" | "site" | "replica">;
  log: (m: string, e?: unknown) => void;
  /** How often the metrics are read; the back-off before the first restart (doubles to 60 s). */
  pollMs?: number;
  restartMs?: number;
  /** The watchdog's patience with a link that makes no progress while HQ answers (20 s). */
  stallMs?: number;
  litestream?: string;
}

export function createHqLinkService(deps: HqLinkDeps) {
  const { db, clock, config, log } = deps;
  const bin = deps.litestream ?? LITESTREAM_BIN;
  const dbPath = config.databaseUrl.startsWith("file:") ? config.databaseUrl.slice("file:".length) : null;
  const settings = createLinkSettings({ db, clock, config, log });
  const machine = createLinkMachine({ clock: deps.linkClock ?? monotonicClock(), restartMs: deps.restartMs, stallMs: deps.stallMs });
  const supervisor = createSupervisor({
    machine,
    settings: settings.current,
    dataDir: config.dataDir,
    dbPath,
    bin,
    pollMs: deps.pollMs ?? 1000,
    log,
    // A restarted Litestream that finds the replica level uploads nothing, and only an upload
    // says where the replica is: one small write (the box's heartbeat, which HQ can read too).
    nudge: async () => {
      const value = clock.now().toISOString();
      await db
        .insert(boxSettings)
        .values({ key: "hqlink_heartbeat", value })
        .onConflictDoUpdate({ target: boxSettings.key, set: { value } })
        .then(
          () => undefined,
          (e) => log("hqlink: heartbeat write failed", e),
        );
    },
  });

  async function start() {
    await settings.load();
    await supervisor.start();
  }

  function health(): LinkHealth {
    const set = settings.current();
    const base = { warn_after_seconds: set.warn, last_shipped_at: machine.lastShippedAt() };
    if (!set.url) return { ...base, state: "off", lag_seconds: null, last_error: null };
    if (!dbPath) return { ...base, state: "down", lag_seconds: null, last_error: "The database is not a local file: Litestream cannot ship it" };
    const { running: _, ...h } = machine.health(set.warn);
    return { ...base, ...h };
  }

  function state(): LinkState {
    const set = settings.current();
    let url = set.url;
    if (url) {
      const u = new URL(url);
      u.password = "";
      url = u.toString();
    }
    return {
      ...health(),
      running: machine.phase() === "running",
      restarts: machine.restarts(),
      ...machine.positions(),
      settings: { url, site: set.site, key_set: !!set.keyPath, warn_after_seconds: set.warn, presets: set.presets },
    };
  }

  async function save(caller: EmployeeCaller, body: LinkSettingsBody): Promise<LinkState> {
    await settings.save(caller, body);
    await supervisor.stop();
    machine.reset();
    await start();
    return state();
  }

  /** One check at a time: a second Check pressed meanwhile (another tablet) gets the same answer. */
  let checking: Promise<LinkCheck> | null = null;
  const check = (): Promise<LinkCheck> =>
    (checking ??= checkLink({ bin, dataDir: config.dataDir, dbPath, settings: settings.current(), log }).finally(() => (checking = null)));

  return {
    start,
    stop: supervisor.stop,
    health,
    state,
    save,
    check,
    /** Litestream's process id (tests kill it to see it restarted). */
    pid: supervisor.pid,
    /**
     * Whether Litestream checkpoints the WAL now (the appliance's checkpointer then stands aside):
     * while the link is on and Litestream runs, or died less than ten minutes ago.
     */
    controlsCheckpoints: () => !!settings.current().url && !!dbPath && machine.controlsCheckpoints(supervisor.alive()),
  };
}

export type HqLinkService = ReturnType<typeof createHqLinkService>;
