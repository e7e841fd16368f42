import { createHidDecoder } from "./decode";

export interface HidScannerOptions {
  id: string;
  vendorId: number;
  productId: number;
  onCode: (code: string) => void;
  onStatus: (status: "online" | "offline", detail?: string) => void;
  retryMs?: number;
}

/**
 * Reads a gun in USB HID keyboard mode through node-hid (the box grabs the device, so its
 * keystrokes do not also land in a console). Unplugged, the device errors; the reader then
 * reports offline and reopens it every retryMs. node-hid is loaded lazily: a box without
 * libusb still runs, and says why the gun is offline.
 */
export function startHidScanner(o: HidScannerOptions): { stop(): void } {
  let stopped = false;
  let device: { close(): void; on(ev: string, cb: (x: never) => void): void } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const again = (detail: string) => {
    device = null;
    o.onStatus("offline", detail);
    if (!stopped) timer = setTimeout(open, o.retryMs ?? 2000);
  };
  async function open() {
    if (stopped) return;
    try {
      const hid = (await import("node-hid")) as unknown as { HID: new (v: number, p: number) => typeof device };
      const d = new hid.HID(o.vendorId, o.productId)!;
      device = d;
      const decode = createHidDecoder(o.onCode);
      d.on("data", ((data: Buffer) => decode(data)) as (x: never) => void);
      d.on("error", ((e: Error) => {
        d.close();
        again(e.message || "unplugged");
      }) as (x: never) => void);
      o.onStatus("online");
    } catch (e) {
      again(e instanceof Error ? e.message : String(e));
    }
  }
  void open();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      device?.close();
    },
  };
}
