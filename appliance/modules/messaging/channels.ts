// How messages leave the box: the channel settings (stored, environment presets winning), the
// channels built from them (cached until a save), the settings screen's read and save, and the
// test message. Passwords never leave: URLs are masked, and a masked URL sent back keeps the
// stored password only for the same server and user.
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import type { DeviceAccess } from "../../../drivers/devices";
import {
  type Channel,
  type ChannelSettings,
  ChannelSettingsError,
  checkChannelSettings,
  isEmailAddress,
  maskUrl,
  NO_CHANNELS,
} from "../../../drivers/messaging";
import type { Clock } from "../../platform/clock";
import { tooMany, unprocessable } from "../../platform/errors";
import { audit } from "../audit/audit";
import type { EmployeeCaller } from "../auth/caller";
import { type Channels, dialable, headerLine } from "./compose";
import type { MessagingSettings, SettingsValues, TestChannel, TestResult } from "./model";
import { seconds, slidingWindow, TESTS_PER_MINUTE } from "./throttle";

/** Builds the channels of these settings (drivers/messaging createChannels; checked settings only). */
export type ChannelFactory = (s: ChannelSettings) => Channels;

const SETTINGS_KEY = "messaging";
/** What the settings screen shows in place of a stored password; sent back, it keeps that password. */
const MASK = "***";

const FIELDS = { sms_gateway_url: "smsGatewayUrl", modem_path: "modemPath", smtp_url: "smtpUrl", smtp_from: "smtpFrom" } as const satisfies Record<
  keyof SettingsValues,
  keyof ChannelSettings
>;

/** The stored settings' shape: read through it, so a hand edit or an older shape never reaches a channel unchecked. */
const Stored = z
  .object({ smsGatewayUrl: z.string().nullable(), modemPath: z.string().nullable(), smtpUrl: z.string().nullable(), smtpFrom: z.string().nullable() })
  .partial();

export function createChannelSettings({
  db,
  clock,
  devices,
  presets,
  makeChannels,
  sendTimeoutMs,
  log,
}: {
  db: Db;
  clock: Clock;
  devices: DeviceAccess;
  /** Settings the box's environment presets (config.messaging): these win and are read-only. */
  presets: ChannelSettings;
  makeChannels: ChannelFactory;
  sendTimeoutMs: number;
  log: (m: string, e?: unknown) => void;
}) {
  async function stored(): Promise<ChannelSettings> {
    const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, SETTINGS_KEY) });
    if (!row) return NO_CHANNELS;
    try {
      const parsed = Stored.safeParse(JSON.parse(row.value));
      if (parsed.success) return { ...NO_CHANNELS, ...parsed.data };
      log(
        `messaging: the stored channel settings are not valid (${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}): no channel until an admin saves them`,
      );
    } catch {
      log("messaging: the stored channel settings are not JSON: no channel until an admin saves them");
    }
    return NO_CHANNELS;
  }
  const isPreset = (f: keyof ChannelSettings) => !!presets[f];
  async function effective(): Promise<ChannelSettings> {
    const s = await stored();
    const out = { ...NO_CHANNELS };
    for (const f of Object.values(FIELDS)) out[f] = presets[f] || s[f];
    return out;
  }

  let current: Channels | null = null;
  /** The channels now in use, built once from the settings (again after a save). */
  async function channels(): Promise<Channels> {
    if (current) return current;
    try {
      current = makeChannels(await effective());
    } catch (e) {
      // A stored setting that no longer holds (a modem path gone from the device root): no channel, said in the log.
      log(`messaging: the channel settings cannot be used: ${e instanceof Error ? e.message : String(e)}`);
      current = { sms: null, email: null };
    }
    return current;
  }
  async function dropChannels() {
    const old = current;
    current = null;
    for (const ch of [old?.sms, old?.email]) await ch?.close?.().catch(() => {});
  }

  const testSends = slidingWindow(TESTS_PER_MINUTE, 60_000);

  async function settings(): Promise<MessagingSettings> {
    const eff = await effective();
    const ch = await channels();
    const show = (f: keyof ChannelSettings) => (f === "smsGatewayUrl" || f === "smtpUrl" ? maskUrl(eff[f]) : eff[f]) ?? "";
    return {
      values: { sms_gateway_url: show("smsGatewayUrl"), modem_path: show("modemPath"), smtp_url: show("smtpUrl"), smtp_from: show("smtpFrom") },
      presets: {
        sms_gateway_url: isPreset("smsGatewayUrl"),
        modem_path: isPreset("modemPath"),
        smtp_url: isPreset("smtpUrl"),
        smtp_from: isPreset("smtpFrom"),
      },
      channels: { sms: ch.sms?.label ?? null, email: ch.email?.label ?? null },
    };
  }

  return {
    channels,
    dropChannels,
    settings,

    /**
     * Saves the settings the environment does not preset (preset ones are read-only: what is
     * sent for them is ignored). A URL sent back with the masked password keeps the stored one.
     * The caller drops the channels and wakes the sender afterwards.
     */
    async save(caller: EmployeeCaller, v: SettingsValues): Promise<void> {
      const before = await stored();
      const next: ChannelSettings = { ...before };
      for (const [field, key] of Object.entries(FIELDS) as [keyof SettingsValues, keyof ChannelSettings][]) {
        if (isPreset(key)) continue;
        const kept = keepPassword(v[field], before[key]);
        if (kept === null) throw unprocessable(`${field}: type the password again: the masked one only stays with the same server and user`);
        next[key] = kept || null;
      }
      // Checked as they will be used, with the presets: e-mail needs its From wherever each comes from.
      const used = { ...next };
      for (const k of Object.values(FIELDS)) if (isPreset(k)) used[k] = presets[k];
      let tidy: ChannelSettings;
      try {
        tidy = checkChannelSettings(used, devices);
      } catch (e) {
        if (e instanceof ChannelSettingsError) throw unprocessable(`${Object.entries(FIELDS).find(([, k]) => k === e.field)?.[0] ?? e.field}: ${e.message}`);
        throw e;
      }
      const checked = { ...next };
      for (const k of Object.values(FIELDS)) if (!isPreset(k)) checked[k] = tidy[k];
      const changed = Object.entries(FIELDS)
        .filter(([, k]) => (before[k] ?? null) !== (checked[k] ?? null))
        .map(([f]) => f);
      await db.transaction(async (tx) => {
        const value = JSON.stringify(checked);
        await tx.insert(boxSettings).values({ key: SETTINGS_KEY, value }).onConflictDoUpdate({ target: boxSettings.key, set: { value } });
        // Which settings changed, never their values (URLs hold passwords).
        await audit(tx, clock.now(), caller, "configure", "messaging", null, { changed });
      });
      await dropChannels();
    },

    /** Sends one test message through one channel of the current settings, and says what happened in plain words. */
    async test(caller: EmployeeCaller, which: TestChannel, to: string): Promise<TestResult> {
      const eff = await effective();
      const only: ChannelSettings =
        which === "gateway"
          ? { ...NO_CHANNELS, smsGatewayUrl: eff.smsGatewayUrl }
          : which === "modem"
            ? { ...NO_CHANNELS, modemPath: eff.modemPath }
            : { ...NO_CHANNELS, smtpUrl: eff.smtpUrl, smtpFrom: eff.smtpFrom };
      const names = { gateway: "The SMS gateway (Android phone)", modem: "The GSM modem", smtp: "E-mail (SMTP)" } as const;
      if (!Object.values(only).some(Boolean)) return { ok: false, message: `${names[which]} is not set up` };
      const recipient = which === "smtp" ? (isEmailAddress(to.trim()) ? to.trim() : null) : dialable(to);
      if (!recipient) throw unprocessable(which === "smtp" ? "to: an e-mail address" : "to: a mobile number (digits, optionally starting with +)");
      const wait = testSends.take(which, clock.now().getTime());
      if (wait > 0)
        throw tooMany(`${names[which]} has been tested ${TESTS_PER_MINUTE} times in the last minute: wait ${seconds(wait)} s before testing it again`);
      let channel: Channel | null = null;
      try {
        const built = makeChannels(only);
        channel = which === "smtp" ? built.email : built.sms;
        if (!channel) return { ok: false, message: `${names[which]} is not set up` };
        await channel.send(
          {
            key: crypto.randomUUID(),
            to: recipient,
            text: `Test message from Ironbox at ${caller.agent.name}.`,
            subject: headerLine(`Ironbox test message from ${caller.agent.name}`),
          },
          AbortSignal.timeout(sendTimeoutMs),
        );
        await audit(db, clock.now(), caller, "test", "messaging", null, { channel: which, to: recipient });
        return { ok: true, message: `Sent to ${recipient} through ${channel.label}` };
      } catch (e) {
        return { ok: false, message: scrub(e instanceof Error ? e.message : String(e), only) };
      } finally {
        await channel?.close?.().catch(() => {});
      }
    },
  };
}
export type ChannelSettingsStore = ReturnType<typeof createChannelSettings>;

/**
 * A URL sent back with the masked password keeps the stored password, but only for the same
 * scheme, server, port and user: otherwise whoever may edit the settings could send the stored
 * password to a server of their own without ever seeing it (null: refused).
 */
function keepPassword(sent: string, stored: string | null): string | null {
  const v = sent.trim();
  if (!v) return v;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return v;
  }
  if (decodeURIComponent(u.password) !== MASK) return v;
  let old: URL;
  try {
    old = new URL(stored ?? "");
  } catch {
    return null;
  }
  if (old.protocol !== u.protocol || old.host !== u.host || old.username !== u.username) return null;
  u.password = old.password;
  return u.toString();
}

/** An error message as people may see it: any password of these settings replaced by the mask. */
function scrub(message: string, s: ChannelSettings): string {
  let out = message;
  for (const url of [s.smsGatewayUrl, s.smtpUrl]) {
    if (!url) continue;
    try {
      const p = new URL(url).password;
      if (p) out = out.split(p).join(MASK).split(decodeURIComponent(p)).join(MASK);
    } catch {}
  }
  return out;
}
