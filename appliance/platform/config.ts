import { isUnder, MOUNTED_DISK_ROOTS } from "../domain/disks";
import { isIP } from "node:net";
import { hostname } from "node:os";
import { resolve } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { type BoxMode, isSiteName } from "../domain/sites";

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

function lagWarn(v: string | undefined): number | null {
  if (v === undefined || v === "") return null;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`IRONBOX_LINK_LAG_WARN_SECONDS is not a number of seconds: ${v}`);
  return n;
}

/** A site HQ restores: its name and its replica's URL (file://, sftp:// or s3://; may hold a password). */
export interface SiteReplica {
  name: string;
  url: string;
}

/** Head quarters' box (IRONBOX_MODE=hq): where the sites' replicas are and how often they are restored. */
export interface HqConfig {
  /** IRONBOX_SITES="mosta=sftp://…/mosta,birkirkara=file:///srv/ironbox/birkirkara". */
  sites: SiteReplica[];
  /** IRONBOX_HQ_STORAGE: a folder with a replica folder per site (found at each restore round). */
  storage: string | null;
  /** IRONBOX_HQ_RESTORE_SECONDS (default 60; 0 restores on demand only). */
  restoreEverySec: number;
  /** IRONBOX_HQ_SFTP_KEY: the private key for sftp:// replicas without a password. */
  sftpKey: string | null;
  /**
   * IRONBOX_HQ_RESTORE_PARALLEL (default 2, 1–16): sites a round restores at once. A restore is
   * a child process and disk reads: two on a 2-core box nearly double a round's throughput.
   */
  restoreParallel?: number;
}

/** IRONBOX_SITES: name=url pairs, comma-separated. Errors name the site, never the URL (it may hold a password). */
function hqConfig(env: Record<string, string | undefined>): HqConfig {
  const sites: SiteReplica[] = [];
  for (const pair of (env.IRONBOX_SITES ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const at = pair.indexOf("=");
    const name = pair.slice(0, Math.max(at, 0)).trim();
    const url = pair.slice(at + 1).trim();
    if (!isSiteName(name)) throw new Error(`IRONBOX_SITES: a site name is lower-case letters, digits and dashes (got ${JSON.stringify(name.slice(0, 40))})`);
    if (sites.some((s) => s.name === name)) throw new Error(`IRONBOX_SITES: site ${name} is listed twice`);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`IRONBOX_SITES: the replica URL of ${name} is not a URL`);
    }
    if (!["file:", "sftp:", "s3:"].includes(parsed.protocol)) throw new Error(`IRONBOX_SITES: the replica URL of ${name} must be file://, sftp:// or s3://`);
    if (parsed.protocol === "file:" && (parsed.host || !url.startsWith("file:///")))
      throw new Error(`IRONBOX_SITES: ${name}: a file:// replica is an absolute path`);
    sites.push({ name, url });
  }
  const every = Number(env.IRONBOX_HQ_RESTORE_SECONDS ?? 60);
  if (!Number.isFinite(every) || every < 0) throw new Error(`IRONBOX_HQ_RESTORE_SECONDS is not a number of seconds: ${env.IRONBOX_HQ_RESTORE_SECONDS}`);
  const parallel = Number(env.IRONBOX_HQ_RESTORE_PARALLEL ?? 2);
  if (!Number.isInteger(parallel) || parallel < 1 || parallel > 16)
    throw new Error(`IRONBOX_HQ_RESTORE_PARALLEL is not a number of restores from 1 to 16: ${env.IRONBOX_HQ_RESTORE_PARALLEL}`);
  return {
    sites,
    storage: env.IRONBOX_HQ_STORAGE ? resolve(env.IRONBOX_HQ_STORAGE) : null,
    restoreEverySec: every,
    sftpKey: env.IRONBOX_HQ_SFTP_KEY ? resolve(env.IRONBOX_HQ_SFTP_KEY) : null,
    restoreParallel: parallel,
  };
}

/**
 * Enrolment with HQ for reference data (modules/reference). A shop sets IRONBOX_HQ_URL,
 * IRONBOX_HQ_PUBLIC_KEY and IRONBOX_HQ_TOKEN together; HQ's box sets IRONBOX_HQ_TOKEN alone (the
 * token shops present). IRONBOX_HQ_SYNC_MINUTES: how often a shop looks for a newer snapshot.
 */
export interface ReferenceConfig {
  hqUrl: string | null;
  publicKey: string | null;
  token: string | null;
  /** Issue 35: this shop's own token for what HQ sends it alone (the bookings downlink), IRONBOX_HQ_SITE_TOKEN; HQ shows it per site. */
  siteToken: string | null;
  syncEveryMs: number;
}

/** The shortest enrolment token a box accepts at start. */
export const MIN_HQ_TOKEN_LENGTH = 32;

function referenceConfig(env: Record<string, string | undefined>): ReferenceConfig {
  const { IRONBOX_HQ_URL: url, IRONBOX_HQ_PUBLIC_KEY: publicKey, IRONBOX_HQ_TOKEN: token } = env;
  if ((url || publicKey) && !(url && publicKey && token))
    throw new Error("IRONBOX_HQ_URL, IRONBOX_HQ_PUBLIC_KEY and IRONBOX_HQ_TOKEN go together: set all three or none");
  // The token is all that stands between the network and HQ's reference data (issue 22): a
  // short one could be guessed, so the box refuses to start with one.
  if (token && token.length < MIN_HQ_TOKEN_LENGTH)
    throw new Error(
      `IRONBOX_HQ_TOKEN is ${token.length} characters; it must be at least ${MIN_HQ_TOKEN_LENGTH} (a long random string, e.g. from \`openssl rand -hex 32\`)`,
    );
  if (url) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new Error("IRONBOX_HQ_URL is not a URL");
    }
    if (!["http:", "https:"].includes(u.protocol) || u.username || u.password)
      throw new Error("IRONBOX_HQ_URL must be http:// or https://, without a user or password");
  }
  const minutes = Number(env.IRONBOX_HQ_SYNC_MINUTES || 5);
  if (!Number.isFinite(minutes) || minutes <= 0) throw new Error(`IRONBOX_HQ_SYNC_MINUTES is not a number of minutes: ${env.IRONBOX_HQ_SYNC_MINUTES}`);
  return {
    hqUrl: url || null,
    publicKey: publicKey || null,
    token: token || null,
    siteToken: env.IRONBOX_HQ_SITE_TOKEN || null,
    syncEveryMs: minutes * 60_000,
  };
}

/**
 * Messaging channels preset by the environment, as text: IRONBOX_SMS_GATEWAY_URL
 * (http://user:pass@192.168.1.40:8080), IRONBOX_MODEM_PATH (/dev/ttyUSB2), IRONBOX_SMTP_URL
 * (smtp://user:pass@host:port) and IRONBOX_SMTP_FROM. The composition root checks them with the
 * channels' own rules (drivers/messaging/settings.ts checkPresetChannels) before anything starts.
 */
export interface ChannelPresets {
  smsGatewayUrl: string | null;
  modemPath: string | null;
  smtpUrl: string | null;
  smtpFrom: string | null;
}
const channelPresets = (env: Record<string, string | undefined>): ChannelPresets => ({
  smsGatewayUrl: env.IRONBOX_SMS_GATEWAY_URL ?? null,
  modemPath: env.IRONBOX_MODEM_PATH ?? null,
  smtpUrl: env.IRONBOX_SMTP_URL ?? null,
  smtpFrom: env.IRONBOX_SMTP_FROM ?? null,
});

function backupDir(v: string | undefined): string | null {
  if (!v) return null;
  if (!v.startsWith("/")) throw new Error(`IRONBOX_BACKUP_DIR is an absolute folder: ${v}`);
  // Only a mounted disk, as on the screen: under the unit's PrivateTmp a copy in /tmp vanishes at every restart.
  if (!isUnder(resolve(v), MOUNTED_DISK_ROOTS))
    throw new Error(`IRONBOX_BACKUP_DIR must be under ${MOUNTED_DISK_ROOTS.join(", ")} (a second disk or USB stick): ${v}`);
  return resolve(v);
}

/** Everything the appliance reads from the environment, parsed once at boot. */
export interface Config {
  port: number;
  dataDir: string;
  databaseUrl: string;
  databaseAuthToken: string | undefined;
  demo: boolean;
  /** Issue 26: the HQ screen's import may read from this box's own loopback (tests' stand-in old systems only). */
  importAllowLoopback: boolean;
  admin: { user: string; password: string; pin: string } | null;
  uiDir: string;
  version: string;
  /** mDNS name "Ironbox <site>"; mdns false stops the box advertising itself. */
  site: string;
  mdns: boolean;
  /** HTTPS beside HTTP with the box's own certificates (platform/tls.ts); null when IRONBOX_HTTPS=0. */
  https: { port: number } | null;
  /** Where printer discovery looks (sysfs and /dev); tests and the e2e boxes point these at a stand-in tree. */
  devices: { sysRoot: string; devRoot: string };
  /** How often an open /api/v1/events stream looks its session up again (closed once it has ended). */
  eventsRecheckMs: number;
  uploads: UploadLimits;
  /** IRONBOX_MODE: "shop" (default) or "hq", head quarters' box that publishes reference data and reads every site. */
  mode: BoxMode;
  /** HQ mode only: the sites HQ restores and reports on (modules/chain). */
  hq: HqConfig | null;
  reference: ReferenceConfig;
  /**
   * Replication to HQ (modules/hqlink), when preset by the environment: IRONBOX_REPLICA_URL,
   * IRONBOX_REPLICA_KEY (path to the SSH private key), IRONBOX_LINK_LAG_WARN_SECONDS. Unset
   * values can be set on the "Link to HQ" screen.
   */
  replica: { url: string | null; keyPath: string | null; lagWarnSeconds: number | null; siteFromEnv: boolean };
  /** Messaging channels preset by the environment; the settings screen fills what is unset. */
  messaging: ChannelPresets;
  /** IRONBOX_SMS_WEBHOOK_SECRET: the signing key of the SMS gateway's incoming-message webhook (null: the webhook refuses every call). */
  smsWebhookSecret: string | null;
  /** IRONBOX_BACKUP_DIR: a second disk or USB stick the nightly backup also goes to (modules/boxhealth/backups.ts). */
  backupDir: string | null;
  /** IRONBOX_ALLOWED_HOSTS: more names the box answers to besides its own (http/hostGuard.ts). */
  allowedHosts: string[];
  /**
   * Issue 35, the public face: IRONBOX_PUBLIC_URL, the chain's public address the status links
   * in messages point at (https://status.example.com; null: messages carry no link), and
   * IRONBOX_PUBLIC_PORT, the port of the public listener (null: no public listener).
   */
  publicFace: { url: string | null; port: number | null };
}

/**
 * IRONBOX_ALLOWED_HOSTS="hq.example.com,.chain.example,203.0.113.9": host names, domains with a
 * leading dot, or addresses the box is reached at that are not its own (a port forward).
 */
function allowedHosts(v: string | undefined): string[] {
  const out = (v ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const n of out)
    if (!/^\.?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(n) && !isIP(n.replace(/^\[(.*)\]$/, "$1")))
      throw new Error(`IRONBOX_ALLOWED_HOSTS: ${JSON.stringify(n.slice(0, 80))} is not a host name or address (no scheme, no port)`);
  return out;
}

/** IRONBOX_PUBLIC_URL: an http(s) origin, optionally with a path, without query or credentials. */
function publicUrl(v: string | undefined): string | null {
  if (!v) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new Error("IRONBOX_PUBLIC_URL is not a URL (e.g. https://status.example.com)");
  }
  if ((u.protocol !== "https:" && u.protocol !== "http:") || u.username || u.password || u.search || u.hash)
    throw new Error("IRONBOX_PUBLIC_URL is an http(s) address without user, query or fragment (e.g. https://status.example.com)");
  return `${u.origin}${u.pathname.replace(/\/+$/, "")}`;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const dataDir = resolve(env.IRONBOX_DATA_DIR || "./data");
  const portOf = (name: string, v: string | number) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} is not a port: ${v}`);
    return n;
  };
  const port = portOf("IRONBOX_PORT", env.IRONBOX_PORT || 8080);
  const { IRONBOX_ADMIN_USER: user, IRONBOX_ADMIN_PASSWORD: password, IRONBOX_ADMIN_PIN: pin } = env;
  if ((user || password || pin) && !(user && password && pin)) {
    throw new Error("IRONBOX_ADMIN_USER, IRONBOX_ADMIN_PASSWORD and IRONBOX_ADMIN_PIN go together: set all three or none");
  }
  const devices = { sysRoot: resolve(env.IRONBOX_SYSFS_ROOT || "/sys"), devRoot: resolve(env.IRONBOX_DEV_ROOT || "/dev") };
  const mode = (env.IRONBOX_MODE || "shop") as BoxMode;
  if (mode !== "shop" && mode !== "hq") throw new Error(`IRONBOX_MODE is "shop" or "hq": ${env.IRONBOX_MODE}`);
  return {
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL || `file:${resolve(dataDir, "ironbox.db")}`,
    databaseAuthToken: env.DATABASE_AUTH_TOKEN || undefined,
    demo: env.IRONBOX_DEMO === "1" || env.IRONBOX_DEMO === "true",
    importAllowLoopback: env.IRONBOX_IMPORT_ALLOW_LOOPBACK === "1",
    admin: user && password && pin ? { user, password, pin } : null,
    uiDir: resolve(env.IRONBOX_UI_DIR || resolve(import.meta.dir, "../../ui/dist")),
    version: pkg.version,
    site: env.IRONBOX_SITE_NAME || hostname(),
    mdns: env.IRONBOX_MDNS !== "0",
    https: env.IRONBOX_HTTPS === "0" ? null : { port: portOf("IRONBOX_HTTPS_PORT", env.IRONBOX_HTTPS_PORT || 8443) },
    devices,
    eventsRecheckMs: Math.max(50, Number(env.IRONBOX_EVENTS_RECHECK_MS) || 20_000),
    uploads: uploadLimits(env),
    mode,
    hq: mode === "hq" ? hqConfig(env) : null,
    reference: referenceConfig(env),
    replica: {
      url: env.IRONBOX_REPLICA_URL || null,
      keyPath: env.IRONBOX_REPLICA_KEY ? resolve(env.IRONBOX_REPLICA_KEY) : null,
      lagWarnSeconds: lagWarn(env.IRONBOX_LINK_LAG_WARN_SECONDS),
      siteFromEnv: !!env.IRONBOX_SITE_NAME,
    },
    messaging: channelPresets(env),
    smsWebhookSecret: env.IRONBOX_SMS_WEBHOOK_SECRET || null,
    backupDir: backupDir(env.IRONBOX_BACKUP_DIR),
    allowedHosts: allowedHosts(env.IRONBOX_ALLOWED_HOSTS),
    publicFace: { url: publicUrl(env.IRONBOX_PUBLIC_URL), port: env.IRONBOX_PUBLIC_PORT ? portOf("IRONBOX_PUBLIC_PORT", env.IRONBOX_PUBLIC_PORT) : null },
  };
}
