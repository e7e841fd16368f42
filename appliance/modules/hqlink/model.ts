// The HQ link's contract: the state of the replication to HQ (Litestream) and its settings.
import { z } from "zod";

/** The link as the health check shows it (the home screen's warning tile reads this). */
export const LinkHealth = z.object({
  state: z
    .enum(["off", "ok", "lagging", "down"])
    .describe("off: not configured; lagging: behind by more than warn_after_seconds; down: Litestream not running or HQ not answering"),
  lag_seconds: z.number().nullable().describe("Seconds since the oldest local change HQ does not have yet; 0 when caught up; null when off"),
  last_shipped_at: z.string().nullable().describe("When HQ last acknowledged a change (UTC ISO)"),
  last_error: z.string().nullable().describe("The last error, in plain words"),
  warn_after_seconds: z.number(),
});
export type LinkHealth = z.infer<typeof LinkHealth>;

/** Where the database was last shipped: Litestream's generation, WAL index and byte offset. */
export const LinkPosition = z.object({ generation: z.string().nullable(), index: z.number(), offset: z.number() });
export type LinkPosition = z.infer<typeof LinkPosition>;

/** Which settings come from the box's environment (those the screen cannot change). */
export const LinkPresets = z.object({ url: z.boolean(), key: z.boolean(), site: z.boolean(), warn_after_seconds: z.boolean() });

export const LinkState = LinkHealth.extend({
  running: z.boolean().describe("Litestream is running"),
  restarts: z.number().describe("How often Litestream was restarted since the box started"),
  shipped: LinkPosition.nullable().describe("The last position HQ acknowledged"),
  local: LinkPosition.nullable().describe("The box's own newest position"),
  settings: z.object({
    url: z.string().nullable().describe("The replica URL without any password"),
    site: z.string(),
    key_set: z.boolean().describe("Whether a key is stored (the key itself is never shown)"),
    warn_after_seconds: z.number(),
    presets: LinkPresets,
  }),
});
export type LinkState = z.infer<typeof LinkState>;

const hostPart = /^[A-Za-z0-9.-]{1,253}$/;

/**
 * A replica URL the box may connect to: sftp://user@host[:port]/path or s3://bucket/path
 * (optional ?endpoint=https://host[:port] for S3-compatible storage); file:///path for a
 * local disk. No passwords in the URL (the key is kept apart), no query but the endpoint.
 */
export const ReplicaUrl = z
  .string()
  .trim()
  .max(500)
  .superRefine((v, ctx) => {
    const problem = replicaUrlProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export function replicaUrlProblem(v: string): string | null {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return "is not a URL (sftp://user@host:port/folder or s3://bucket/folder)";
  }
  if (u.password) return "must not hold a password: use a key";
  if (u.hash) return "must not have a #fragment";
  if (u.protocol === "sftp:") {
    if (!u.username) return "needs the user name: sftp://user@host/folder";
    if (!hostPart.test(u.hostname)) return "has no valid host";
    if (u.search) return "takes no query for sftp";
    if (u.pathname.length < 2) return "needs the site's folder: sftp://user@host/folder";
  } else if (u.protocol === "s3:") {
    if (!/^[a-z0-9][a-z0-9.-]{1,62}$/.test(u.hostname)) return "has no valid bucket name";
    if (u.username) return "must not hold keys: set LITESTREAM_ACCESS_KEY_ID and LITESTREAM_SECRET_ACCESS_KEY";
    for (const k of u.searchParams.keys()) if (k !== "endpoint") return `takes only ?endpoint= (not ${k})`;
    const endpoint = u.searchParams.get("endpoint");
    if (endpoint !== null) {
      try {
        const e = new URL(endpoint);
        if (!/^https?:$/.test(e.protocol) || !hostPart.test(e.hostname) || e.username || e.password) return "has an endpoint that is not http(s)://host[:port]";
      } catch {
        return "has an endpoint that is not a URL";
      }
    }
  } else if (u.protocol === "file:") {
    if (u.host) return "file URLs take no host: file:///folder";
    if (u.pathname.length < 2) return "needs a folder";
  } else return "must start with sftp:// or s3:// (or file:// for a local disk)";
  return null;
}

/** An OpenSSH or PEM private key, pasted or uploaded (kept in a 0600 file, never shown again). */
export const PrivateKey = z
  .string()
  .max(20_000)
  .refine(
    (k) => /^-----BEGIN (OPENSSH|RSA|EC|DSA)? ?PRIVATE KEY-----\r?\n[\s\S]+\r?\n-----END (OPENSSH|RSA|EC|DSA)? ?PRIVATE KEY-----\s*$/.test(`${k.trim()}\n`),
    {
      message: "is not a private key (-----BEGIN OPENSSH PRIVATE KEY----- ...)",
    },
  );

export const LinkSettingsBody = z.object({
  url: ReplicaUrl.nullable().optional().describe("The replica URL; null turns the link off"),
  key: PrivateKey.optional().describe("The SSH private key for sftp (write-only: never shown again)"),
  site: z
    .string()
    .trim()
    .min(1)
    .max(60)
    .regex(/^[A-Za-z0-9 _.-]+$/, "letters, digits, space, _ . - only")
    .optional(),
  warn_after_seconds: z
    .number()
    .int()
    .min(10)
    .max(7 * 24 * 3600)
    .optional(),
});
export type LinkSettingsBody = z.infer<typeof LinkSettingsBody>;

export const LinkCheck = z.object({ ok: z.boolean(), message: z.string() });
export type LinkCheck = z.infer<typeof LinkCheck>;
