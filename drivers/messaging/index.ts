import type { DeviceAccess } from "../devices";
import { androidGatewayChannel } from "./androidGateway";
import { type Channel, ChannelError } from "./channel";
import { gsmModemChannel } from "./gsmModem";
import { type ChannelSettings, checkChannelSettings } from "./settings";
import { smtpChannel } from "./smtp";

export { type Channel, ChannelError, type IncomingSms, type LookupResult, type OutgoingMessage, type SendResult } from "./channel";
export {
  type ChannelSettings,
  ChannelSettingsError,
  checkChannelSettings,
  checkPresetChannels,
  isEmailAddress,
  maskUrl,
  NO_CHANNELS,
  parseFromAddress,
  parseGatewayUrl,
  parseSmtpUrl,
} from "./settings";

/**
 * The phone must be on the shop's network: every address its name has is a LAN address (the
 * same rule as network printers; loopback only with a test device root).
 */
function lanHostCheck(devices: DeviceAccess) {
  return async (host: string) => {
    const ips = await devices.resolveLan(host);
    if (ips === "unknown") throw new ChannelError(`The phone's name ${host} is not known on this network`);
    if (ips === "outside") throw new ChannelError("The phone must be on the shop's network (a private LAN address)", true);
  };
}

/**
 * The channels these settings give: SMS through the Android phone when its URL is set,
 * otherwise through the modem when its path is set (the phone wins when both are: it needs no
 * hardware on the box and reports each message's state); e-mail when SMTP and From are set.
 * Settings are checked first (checkChannelSettings).
 */
export function createChannels(
  settings: ChannelSettings,
  deps: { devices: DeviceAccess; timeoutMs?: number /** PEM trusted for SMTP besides the system's (tests' local server). */; smtpCa?: string },
): { sms: Channel | null; email: Channel | null } {
  const s = checkChannelSettings(settings, deps.devices);
  const sms = s.smsGatewayUrl
    ? androidGatewayChannel({ url: s.smsGatewayUrl, timeoutMs: deps.timeoutMs, checkHost: lanHostCheck(deps.devices) })
    : s.modemPath
      ? gsmModemChannel({ path: s.modemPath, devices: deps.devices, timeoutMs: deps.timeoutMs })
      : null;
  const email = s.smtpUrl && s.smtpFrom ? smtpChannel({ url: s.smtpUrl, from: s.smtpFrom, timeoutMs: deps.timeoutMs, ca: deps.smtpCa }) : null;
  return { sms, email };
}
