// The box's health panel ("The box", admins): hardware, disk, database, HQ link, backups, certificate.
import { z } from "zod";
import { LinkHealth } from "../hqlink/model";

/** A printer or barcode gun of the box: its state now and when it last did its job. */
export const DeviceHealth = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(["online", "offline", "unknown"]).describe("online: attached now; offline: set up but not found; unknown: not probed (network printers)"),
  last_ok_at: z.string().nullable().describe("A printer's last printed job; a gun's last scan since the box started (UTC ISO)"),
  last_error: z.string().nullable().describe("A printer's last job's error when that job failed; a gun's reason for being offline"),
});
export type DeviceHealth = z.infer<typeof DeviceHealth>;

/**
 * The last database check (`PRAGMA integrity_check`, then every total_paid against its payment
 * rows; run in a process of its own at boot and daily).
 */
export const IntegrityCheck = z.object({
  ok: z.boolean(),
  result: z.string().describe("ok, SQLite's first findings, or how many paid totals differ from their payment rows and the first"),
  checked_at: z.string(),
  ms: z.number().int(),
  totals: z
    .object({
      ok: z.boolean(),
      count: z.number().int().describe("Tickets and items whose total_paid differs from the sum of their payment rows"),
      first: z.array(z.string()).describe('The first of them, e.g. "ticket 12", "item 40"'),
    })
    .nullable()
    .default(null)
    .describe("null when the file failed its integrity check (or for a check from before issue 31)"),
});
export type IntegrityCheck = z.infer<typeof IntegrityCheck>;

export const Attention = z.object({
  what: z.enum(["printer", "gun", "disk", "link", "integrity", "certificate", "backup"]),
  message: z.string(),
});
export type Attention = z.infer<typeof Attention>;

export const BoxHealth = z.object({
  version: z.string(),
  started_at: z.string(),
  uptime_seconds: z.number().int(),
  printers: z.array(DeviceHealth),
  guns: z.array(DeviceHealth),
  disk: z.object({ free_bytes: z.number(), total_bytes: z.number(), free_percent: z.number() }).describe("The file system of the data folder"),
  database: z.object({
    bytes: z.number().describe("The database file with its write-ahead log"),
    integrity: IntegrityCheck.nullable().describe("null until the first check has run"),
  }),
  link: LinkHealth,
  backup: z
    .object({
      at: z.string(),
      version: z.string(),
      bytes: z.number(),
      file: z.string(),
      kind: z
        .enum(["nightly", "manual", "upgrade"])
        .describe(
          "nightly: <data dir>/backups/nightly; manual: taken by hand (Back up now), <data dir>/backups/manual; upgrade: taken before an upgrade migrated the database",
        ),
    })
    .nullable()
    .describe("The newest copy of the database on the data disk, nightly or before an upgrade; null when there is none"),
  backups: z
    .object({
      last_run: z
        .object({
          at: z.string(),
          ok: z.boolean(),
          bytes: z.number().nullable(),
          error: z.string().nullable(),
          copies: z.array(z.object({ dir: z.string(), ok: z.boolean(), error: z.string().nullable() })),
        })
        .nullable()
        .describe("The last nightly backup's outcome; null before the first"),
      second_dir: z.string().nullable().describe("The second disk or USB stick the nightly copy also goes to; null when none"),
      second_dir_from: z.enum(["env", "settings"]).nullable().describe("env: IRONBOX_BACKUP_DIR (the screen cannot change it)"),
      keep: z.number().int().describe("How many nightly copies each folder keeps"),
    })
    .describe("Nightly backups (a copy every night, checked, kept for a week)"),
  certificate: z
    .object({ expires_at: z.string(), names: z.array(z.string()) })
    .nullable()
    .describe("The box's HTTPS certificate; null when it has none"),
  needs_attention: z.array(Attention).describe("What needs a person now; empty when all is well"),
});
export type BoxHealth = z.infer<typeof BoxHealth>;

export const BackupDirBody = z.object({
  dir: z.string().max(500).nullable().describe("An existing folder under /srv, /mnt or /media (a second disk or USB stick); null for none"),
});
export type BackupDirBody = z.infer<typeof BackupDirBody>;

export const TimeZoneBody = z.object({ time_zone: z.string().trim().min(1).max(64).describe("An IANA zone name, e.g. Europe/Malta") });
export const TimeZoneSetting = z.object({
  time_zone: z.string(),
  from: z.enum(["env", "settings", "default"]).describe("env: IRONBOX_TIME_ZONE sets it (the screen cannot change it)"),
});
