import { createReadStream, existsSync, type ReadStream } from "node:fs";
import { createLineDecoder } from "./decode";

export interface SerialScannerOptions {
  id: string;
  /** The gun's tty, e.g. /dev/ttyACM0 or a stable /dev/serial/by-id/… link. */
  path: string;
  baud?: number;
  onCode: (code: string) => void;
  onStatus: (status: "online" | "offline", detail?: string) => void;
  retryMs?: number;
}

/** Raw mode at the gun's speed: serialport cannot open ports under Bun (STACK-NOTES), stty can. */
async function configureTty(path: string, baud: number) {
  const p = Bun.spawn(["stty", "-F", path, String(baud), "raw", "-echo"], { stderr: "pipe" });
  if ((await p.exited) !== 0) throw new Error(`stty failed: ${(await new Response(p.stderr).text()).trim()}`);
}

/**
 * Reads a USB-serial (CDC) barcode gun. Unplugging shows as an error or the end of the
 * stream (EIO); the reader then reports offline and tries again every retryMs, so a gun
 * plugged back recovers by itself.
 */
export function startSerialScanner(o: SerialScannerOptions): { stop(): void } {
  let stopped = false;
  let stream: ReadStream | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let online = false;
  const retry = o.retryMs ?? 1000;

  const setStatus = (s: "online" | "offline", detail?: string) => {
    if ((s === "online") === online && s === "offline" && !detail) return;
    online = s === "online";
    o.onStatus(s, detail);
  };
  const again = (detail: string) => {
    stream = null;
    if (online || detail) setStatus("offline", detail);
    if (!stopped) timer = setTimeout(open, retry);
  };

  async function open() {
    if (stopped) return;
    if (!existsSync(o.path)) return again("");
    try {
      await configureTty(o.path, o.baud ?? 9600);
    } catch (e) {
      return again(e instanceof Error ? e.message : String(e));
    }
    const decode = createLineDecoder(o.onCode);
    const s = createReadStream(o.path, { highWaterMark: 256 });
    stream = s;
    s.on("open", () => setStatus("online"));
    s.on("data", (chunk) => decode(chunk as Buffer));
    s.on("error", (e: NodeJS.ErrnoException) => {
      s.destroy();
      again(e.code === "EIO" ? "unplugged" : e.message);
    });
    s.on("close", () => {
      if (stream === s) again("closed");
    });
  }

  void open();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const s = stream;
      stream = null;
      s?.destroy();
    },
  };
}
