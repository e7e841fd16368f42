/**
 * BLE receipt printers through Web Bluetooth (spec §9): ESC/POS in chunks of 100 bytes, 50 ms
 * apart; a failed chunk is retried once after 500 ms, and a printer that still refuses gets
 * 30-byte chunks from there on (small printers have small GATT buffers). Minimal local types:
 * the DOM library has no Web Bluetooth declarations.
 */
export interface BleWritable {
  writeValueWithoutResponse?(data: Uint8Array): Promise<void>;
  writeValue(data: Uint8Array): Promise<void>;
}
interface Characteristic extends BleWritable {
  properties: { write: boolean; writeWithoutResponse: boolean };
}
interface Service {
  getCharacteristics(): Promise<Characteristic[]>;
}
interface Gatt {
  connected: boolean;
  connect(): Promise<Gatt>;
  getPrimaryServices(): Promise<Service[]>;
}
interface BleDevice {
  id: string;
  name?: string;
  gatt?: Gatt;
}
export interface Bluetooth {
  requestDevice(opts: { acceptAllDevices: boolean; optionalServices: (number | string)[] }): Promise<BleDevice>;
}

/** The spec's words when a printer gives up. */
export const CANCELLED = "Printer returned error(1) during print, cancelling";

export async function writeChunked(
  ch: BleWritable,
  bytes: Uint8Array,
  opts: {
    chunk?: number;
    fallbackChunk?: number;
    gapMs?: number;
    retryMs?: number;
    sleep?: (ms: number) => Promise<void>;
    onProgress?: (sent: number, total: number) => void;
  } = {},
): Promise<void> {
  const { fallbackChunk = 30, gapMs = 50, retryMs = 500, sleep = (ms) => new Promise<void>((r) => setTimeout(r, ms)) } = opts;
  let size = opts.chunk ?? 100;
  const write = (d: Uint8Array) => (ch.writeValueWithoutResponse ? ch.writeValueWithoutResponse(d) : ch.writeValue(d));
  let off = 0;
  while (off < bytes.length) {
    const tryOnce = async (n: number) => {
      try {
        await write(bytes.slice(off, off + n));
        return true;
      } catch {
        return false;
      }
    };
    let ok = await tryOnce(size);
    if (!ok) {
      await sleep(retryMs);
      ok = await tryOnce(size);
    }
    if (!ok && size > fallbackChunk) {
      size = fallbackChunk; // stay small from here on
      ok = (await tryOnce(size)) || (await sleep(retryMs), await tryOnce(size));
    }
    if (!ok) throw new Error(CANCELLED);
    off = Math.min(bytes.length, off + size);
    opts.onProgress?.(off, bytes.length);
    if (off < bytes.length) await sleep(gapMs);
  }
}

declare const navigator: { bluetooth?: Bluetooth };
declare const isSecureContext: boolean;

export const bleAvailable = () => typeof isSecureContext !== "undefined" && isSecureContext && typeof navigator !== "undefined" && !!navigator.bluetooth;

export function bleUnavailableReason(): string {
  if (typeof isSecureContext !== "undefined" && !isSecureContext)
    return "Bluetooth printers need the page opened over HTTPS (or on the box itself). Use the box's printers, RawBT or PDF from this tablet.";
  return "This browser cannot reach Bluetooth printers. Use Chrome on Android, or the box's printers, RawBT or PDF.";
}

/** GATT services of common thermal printers (the generic 0x18f0, and vendor ones seen on cheap printers). */
export const PRINTER_SERVICES: (number | string)[] = [
  0x18f0,
  "e7810a71-73ae-499d-8c15-faa9aef0c3f2",
  "49535343-fe7d-4ae5-8fa9-9fafd205e455",
  0xff00,
  0xffe0,
  0xfee7,
];

export interface PairedBlePrinter {
  id: string;
  name: string;
  print(bytes: Uint8Array, onProgress?: (sent: number, total: number) => void): Promise<void>;
}

/** Asks the person to choose a printer, finds a characteristic it can write to, and returns a printer that reconnects when needed. */
export async function pairBlePrinter(
  bluetooth: Bluetooth | undefined = typeof navigator !== "undefined" ? navigator.bluetooth : undefined,
): Promise<PairedBlePrinter> {
  if (!bluetooth) throw new Error(bleUnavailableReason());
  let device: BleDevice;
  try {
    device = await bluetooth.requestDevice({ acceptAllDevices: true, optionalServices: PRINTER_SERVICES });
  } catch {
    throw new Error("No Bluetooth printer was chosen");
  }
  const find = async (): Promise<Characteristic> => {
    if (!device.gatt) throw new Error("This Bluetooth device is not a printer we can write to");
    const gatt = device.gatt.connected ? device.gatt : await device.gatt.connect();
    for (const s of await gatt.getPrimaryServices().catch(() => [] as Service[])) {
      for (const c of await s.getCharacteristics().catch(() => [] as Characteristic[])) if (c.properties.write || c.properties.writeWithoutResponse) return c;
    }
    throw new Error("This Bluetooth device is not a printer we can write to");
  };
  let ch = await find();
  return {
    id: device.id,
    name: device.name || "Bluetooth printer",
    async print(bytes, onProgress) {
      if (!device.gatt?.connected) ch = await find(); // printers sleep and drop the link
      const w: BleWritable = ch.properties.writeWithoutResponse ? ch : { writeValue: (d) => ch.writeValue(d) };
      await writeChunked(w, bytes, { onProgress });
    },
  };
}
