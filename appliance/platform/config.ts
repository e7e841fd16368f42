import { hostname } from "node:os";
import { resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };

const MB = 1024 * 1024;

/**
 * What uploads may take of the box's disk. A shop keeps at most `quotaBytes` of images; no
 * upload is taken while the data directory's file system would keep less than `minFreeBytes`
 * or `minFreeShare` of its size free (the database must always have room to grow).
 */
export interface UploadLimits {
  quotaBytes: number;
  minFreeBytes: number;
  minFreeShare: number;
}
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = { quotaBytes: 500 * MB, minFreeBytes: 1024 * MB, minFreeShare: 0.05 };

/** Limits from the environment: IRONBOX_UPLOAD_QUOTA_MB (per shop), IRONBOX_UPLOAD_MIN_FREE_MB and _PERCENT. */
function uploadLimits(env: Record<string, string | undefined>): UploadLimits {
  const num = (name: string, dflt: number) => {
    const v = env[name];
    if (v === undefined || v === "") return dflt;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} is not a number of ${name.endsWith("PERCENT") ? "percent" : "MB"}: ${v}`);
    return n;
  };
  return {
    quotaBytes: num("IRONBOX_UPLOAD_QUOTA_MB", DEFAULT_UPLOAD_LIMITS.quotaBytes / MB) * MB,
    minFreeBytes: num("IRONBOX_UPLOAD_MIN_FREE_MB", DEFAULT_UPLOAD_LIMITS.minFreeBytes / MB) * MB,
    minFreeShare: num("IRONBOX_UPLOAD_MIN_FREE_PERCENT", DEFAULT_UPLOAD_LIMITS.minFreeShare * 100) / 100,
  };
}

/** Everything the appliance reads from the environment, parsed once at boot. */
export interface Config {
  port: number;
  dataDir: string;
  databaseUrl: string;
  databaseAuthToken: string | undefined;
  demo: boolean;
  admin: { user: string; password: string; pin: string } | null;
  uiDir: string;
  version: string;
  /** mDNS name "Ironbox <site>"; mdns false stops the box advertising itself. */
  site: string;
  mdns: boolean;
  /** Where printer discovery looks (sysfs and /dev); tests and the e2e boxes point these at a stand-in tree. */
  devices: { sysRoot: string; devRoot: string };
  /** How often an open /api/v1/events stream looks its session up again (closed once it has ended). */
  eventsRecheckMs: number;
  uploads: UploadLimits;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const dataDir = resolve(env.IRONBOX_DATA_DIR || "./data");
  const port = Number(env.IRONBOX_PORT || 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`IRONBOX_PORT is not a port: ${env.IRONBOX_PORT}`);
  const { IRONBOX_ADMIN_USER: user, IRONBOX_ADMIN_PASSWORD: password, IRONBOX_ADMIN_PIN: pin } = env;
  if ((user || password || pin) && !(user && password && pin)) {
    throw new Error("IRONBOX_ADMIN_USER, IRONBOX_ADMIN_PASSWORD and IRONBOX_ADMIN_PIN go together: set all three or none");
  }
  return {
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || `file:${resolve(dataDir, "ironbox.db")}`,
    databaseAuthToken: env.DATABASE_AUTH_TOKEN || undefined,
    demo: env.IRONBOX_DEMO === "1" || env.IRONBOX_DEMO === "true",
    admin: user && password && pin ? { user, password, pin } : null,
    uiDir: resolve(env.IRONBOX_UI_DIR || resolve(import.meta.dir, "../../ui/dist")),
    version: pkg.version,
    site: env.IRONBOX_SITE_NAME || hostname(),
    mdns: env.IRONBOX_MDNS !== "0",
    devices: { sysRoot: resolve(env.IRONBOX_SYSFS_ROOT || "/sys"), devRoot: resolve(env.IRONBOX_DEV_ROOT || "/dev") },
    eventsRecheckMs: Math.max(50, Number(env.IRONBOX_EVENTS_RECHECK_MS) || 20_000),
    uploads: uploadLimits(env),
  };
}
