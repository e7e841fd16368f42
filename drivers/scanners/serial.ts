import { closeSync, constants, existsSync } from "node:fs";
import type { DeviceAccess } from "../devices";
import { configureSerialLine, readAvailable } from "../serial";
import { createLineDecoder } from "./decode";

export interface SerialScannerOptions {
  id: string;
  /** The hardware the box may open (drivers/devices.ts). */
  devices: DeviceAccess;
  /** The gun's tty, e.g. /dev/ttyACM0 or a stable /dev/serial/by-id/… link. */
  path: string;
  baud?: number;
  onCode: (code: string) => void;
  onStatus: (status: "online" | "offline", detail?: string) => void;
  retryMs?: number;
}

/** How often a quiet gun is looked at: a 20-character scan takes about 20 ms at 9600 baud. */
const POLL_MS = 20;

/**
 * Reads a USB-serial (CDC) barcode gun. The device is opened non-blocking and read whenever
 * it has bytes (a read stream's pending read on a tty outlived its stream here and swallowed
 * the next scan after a reconfiguration). Unplugging shows as an error or the end of input
 * (EIO); the reader then reports offline and tries again every retryMs, so a gun plugged back
 * recovers by itself.
 */
export function startSerialScanner(o: SerialScannerOptions): { stop(): void } {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let online = false;
  const retry = o.retryMs ?? 1000;

  const setStatus = (s: "online" | "offline", detail?: string) => {
    if ((s === "online") === online && s === "offline" && !detail) return;
    online = s === "online";
    o.onStatus(s, detail);
  };
  const again = (detail: string) => {
    if (online || detail) setStatus("offline", detail);
    if (!stopped) timer = setTimeout(open, retry);
  };

  async function open() {
    if (stopped) return;
    let fd: number;
    try {
      // Only an allowed serial device, and a character device once open (drivers/devices.ts).
      const node = o.devices.checkDevicePath(o.path, "serial");
      if (!existsSync(node)) return again("");
      fd = o.devices.openDevice(o.path, "serial", constants.O_RDONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
      try {
        await configureSerialLine(node, o.baud ?? 9600).catch((e: Error) => {
          throw new Error(`stty failed: ${e.message}`);
        });
      } catch (e) {
        closeSync(fd);
        throw e;
      }
    } catch (e) {
      return again(e instanceof Error ? e.message : String(e));
    }
    setStatus("online");
    const decode = createLineDecoder(o.onCode);
    const buf = Buffer.alloc(256);
    let why = "";
    while (!stopped && !why) {
      try {
        const n = readAvailable(fd, buf);
        if (n === null) await Bun.sleep(POLL_MS);
        else if (n === 0) why = "closed";
        else decode(buf.subarray(0, n));
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        why = err.code === "EIO" || err.code === "ENODEV" ? "unplugged" : err.message;
      }
    }
    closeSync(fd);
    if (!stopped) again(why);
  }

  void open();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
