import { type DeviceAccess, DevicePathError } from "../devices";

/**
 * How messages leave this box: the settings an admin saves on the Messaging settings screen,
 * or the environment presets (IRONBOX_SMS_GATEWAY_URL, IRONBOX_MODEM_PATH, IRONBOX_SMTP_URL,
 * IRONBOX_SMTP_FROM). null = not set. URLs may hold a password: show them with maskUrl.
 */
export type ChannelSettings = {
  smsGatewayUrl: string | null;
  modemPath: string | null;
  smtpUrl: string | null;
  smtpFrom: string | null;
};

export const NO_CHANNELS: ChannelSettings = { smsGatewayUrl: null, modemPath: null, smtpUrl: null, smtpFrom: null };

/** A setting that cannot be used; `field` names it, the message never repeats a URL. */
export class ChannelSettingsError extends Error {
  constructor(
    readonly field: keyof ChannelSettings,
    message: string,
  ) {
    super(message);
    this.name = "ChannelSettingsError";
  }
}

function parseUrl(field: keyof ChannelSettings, text: string, what: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new ChannelSettingsError(field, `${what} is not a URL`);
  }
}

/**
 * The Android phone's local server: http:// or https://, a host, the user and password the
 * app shows, no query. Whether the host is on the shop's network is checked when connecting
 * (checkHost below), since a name is only known by asking the LAN's DNS.
 */
export function parseGatewayUrl(text: string): URL {
  const u = parseUrl("smsGatewayUrl", text, "The SMS gateway address");
  if (!["http:", "https:"].includes(u.protocol) || !u.hostname)
    throw new ChannelSettingsError(
      "smsGatewayUrl",
      "The SMS gateway address must be http:// or https:// with the phone's address, e.g. http://user:pass@192.168.1.40:8080",
    );
  if (!u.username || !u.password)
    throw new ChannelSettingsError("smsGatewayUrl", "The SMS gateway address needs the user name and password the app shows (http://user:pass@…)");
  if (u.search || u.hash) throw new ChannelSettingsError("smsGatewayUrl", "The SMS gateway address takes no ?query or #fragment");
  return u;
}

/** The mail server: smtp:// (STARTTLS when offered) or smtps:// (TLS from the start), a host. */
export function parseSmtpUrl(text: string): URL {
  const u = parseUrl("smtpUrl", text, "The SMTP server address");
  if (!["smtp:", "smtps:"].includes(u.protocol) || !u.hostname)
    throw new ChannelSettingsError("smtpUrl", "The SMTP server address must be smtp:// or smtps://, e.g. smtp://user:pass@mail.example.com:587");
  if ((u.pathname && u.pathname !== "/") || u.search || u.hash)
    throw new ChannelSettingsError("smtpUrl", "The SMTP server address is only smtp[s]://user:pass@host:port");
  return u;
}

const ADDRESS = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** An e-mail address, alone (the recipient check uses the same rule). */
export const isEmailAddress = (s: string) => s.length <= 254 && ADDRESS.test(s);

/**
 * The From of the shop's mail: `shop@example.com` or `Ironbox Mosta <shop@example.com>`.
 * Never a line break (it goes into a header). Returns it trimmed.
 */
export function parseFromAddress(text: string): string {
  const t = text.trim();
  const bad = () => new ChannelSettingsError("smtpFrom", "The From address must be an e-mail address, e.g. Ironbox Mosta <mosta@example.com>");
  if (/[\u0000-\u001f\u007f]/.test(t) || t.length > 320) throw bad();
  const named = /^([^<>"]*)<([^<>]+)>$/.exec(t);
  const address = named ? (named[2] as string).trim() : t;
  if (!isEmailAddress(address)) throw bad();
  return t;
}

/**
 * Checks and tidies settings (blank → null) before they are saved or used; throws
 * ChannelSettingsError for the first bad one. The modem's path must be a serial device under
 * the device root (drivers/devices.ts), like a printer's.
 */
export function checkChannelSettings(s: ChannelSettings, devices: DeviceAccess): ChannelSettings {
  const blank = (v: string | null) => (v?.trim() ? v.trim() : null);
  const out: ChannelSettings = { smsGatewayUrl: blank(s.smsGatewayUrl), modemPath: blank(s.modemPath), smtpUrl: blank(s.smtpUrl), smtpFrom: blank(s.smtpFrom) };
  if (out.smsGatewayUrl) parseGatewayUrl(out.smsGatewayUrl);
  if (out.modemPath) {
    try {
      devices.checkDevicePath(out.modemPath, "serial");
    } catch (e) {
      if (e instanceof DevicePathError) throw new ChannelSettingsError("modemPath", `The modem's ${e.message.replace(/^path: /, "path ")}`);
      throw e;
    }
  }
  if (out.smtpUrl) parseSmtpUrl(out.smtpUrl);
  if (out.smtpFrom) out.smtpFrom = parseFromAddress(out.smtpFrom);
  if (out.smtpUrl && !out.smtpFrom) throw new ChannelSettingsError("smtpFrom", "E-mail needs a From address too");
  return out;
}

export { maskUrl } from "../../appliance/domain/urls";

/** The environment variable that presets each setting. */
const PRESET_VARS: Record<keyof ChannelSettings, string> = {
  smsGatewayUrl: "IRONBOX_SMS_GATEWAY_URL",
  modemPath: "IRONBOX_MODEM_PATH",
  smtpUrl: "IRONBOX_SMTP_URL",
  smtpFrom: "IRONBOX_SMTP_FROM",
};

/**
 * The environment's presets (platform/config.ts reads them as plain text), checked at boot by
 * the channels' own rules. An error names the variable, never its value (it may hold a password).
 */
export function checkPresetChannels(raw: ChannelSettings, devices: DeviceAccess): ChannelSettings {
  try {
    return checkChannelSettings(raw, devices);
  } catch (e) {
    if (e instanceof ChannelSettingsError) throw new Error(`${PRESET_VARS[e.field]}: ${e.message}`);
    throw e;
  }
}
