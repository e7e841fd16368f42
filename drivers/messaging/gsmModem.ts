import type { DeviceAccess } from "../devices";
import { type Channel, ChannelError } from "./channel";

export interface GsmModemOptions {
  path: string;
  devices: DeviceAccess;
  timeoutMs?: number;
}

/** SMS through a GSM USB modem (being written: answers "not ready" for now). */
export function gsmModemChannel(o: GsmModemOptions): Channel {
  const notReady = async (): Promise<never> => {
    throw new ChannelError("The modem driver is not ready yet");
  };
  return { kind: "sms", label: `SMS via modem ${o.path}`, send: notReady, check: notReady };
}
