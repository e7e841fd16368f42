/**
 * The link's settings: the replica URL, the key, the site's name and the lag warning, from the
 * box's environment (read-only on the screen) or stored in box_settings (parsed by their
 * schema on every load), and their audited change.
 */
import { chmodSync, existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import type { Config } from "../../platform/config";
import { conflict, unprocessable } from "../../platform/errors";
import { audit } from "../audit/audit";
import type { EmployeeCaller } from "../auth/caller";
import type { LinkSettingsBody } from "./model";
import { MOUNTED_DISK_ROOTS } from "../../domain/disks";

const SETTINGS_KEY = "hqlink";
export const KEY_FILE = "hq-link.key";
export const DEFAULT_WARN_SECONDS = 300;

/** Where a file:// replica set on the screen may be: mounted disks, and the temp folder (tests). */
const FILE_ROOTS = () => [...MOUNTED_DISK_ROOTS, resolve(tmpdir())];

const Stored = z.object({ url: z.string().nullable().optional(), site: z.string().optional(), warn_after_seconds: z.number().optional() });
type Stored = z.infer<typeof Stored>;

export interface LinkSettings {
  url: string | null;
  keyPath: string | null;
  site: string;
  warn: number;
  presets: { url: boolean; key: boolean; site: boolean; warn_after_seconds: boolean };
}

export function createLinkSettings(deps: {
  db: Db;
  clock: Clock;
  config: Pick<Config, "dataDir" | "site" | "replica">;
  log: (m: string, e?: unknown) => void;
}) {
  const { db, config } = deps;
  const keyFile = join(config.dataDir, KEY_FILE);
  let stored: Stored = {};

  /** The settings in force: the environment's first, then what was saved. */
  function current(): LinkSettings {
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
    stored = {};
    if (!row) return;
    let parsed: ReturnType<typeof Stored.safeParse> | null = null;
    try {
      parsed = Stored.safeParse(JSON.parse(row.value));
    } catch {
      // not JSON: said below
    }
    if (parsed?.success) stored = parsed.data;
    else deps.log(`box_settings "${SETTINGS_KEY}": settings invalid; the link stays off until it is saved again`);
  }

  /** Checks and stores a change (the key beside the old one until the change is audited). Throws 409/422. */
  async function save(caller: EmployeeCaller, body: LinkSettingsBody): Promise<void> {
    const set = current();
    const preset = (field: keyof LinkSettings["presets"], env: string, given: unknown) => {
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
        await audit(tx, deps.clock.now(), caller, "update", "hq_link", null, {
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
  }

  return { current, load, save };
}

export type LinkSettingsStore = ReturnType<typeof createLinkSettings>;
