import { constants, createReadStream, existsSync, type ReadStream } from "node:fs";
import type { DeviceAccess } from "../devices";

/**
 * Keyboard-wedge guns read straight from the kernel's input device (/dev/input/eventN), so
 * their keystrokes never reach a console or another program: the reader takes the device for
 * itself with the EVIOCGRAB ioctl (through libc, via bun:ffi).
 *
 * Each event is a 24-byte struct input_event on 64-bit Linux: timeval (16), type u16,
 * code u16, value s32. Key presses are type EV_KEY (1) with value 1.
 */
export const EVENT_SIZE = 24;
const EV_KEY = 1;
const SHIFTS = new Set([42, 54]);
const ENTERS = new Set([28, 96]);
const KEYS: Record<number, [string, string]> = {};
const row = (start: number, plain: string, shifted: string) => [...plain].forEach((c, i) => (KEYS[start + i] = [c, shifted[i]!]));
row(2, "1234567890-=", "!@#$%^&*()_+");
row(16, "qwertyuiop[]", "QWERTYUIOP{}");
row(30, "asdfghjkl;'`", 'ASDFGHJKL:"~');
KEYS[43] = ["\\", "|"];
row(44, "zxcvbnm,./", "ZXCVBNM<>?");
KEYS[57] = [" ", " "];

/** Turns input events into scan strings, one per Enter (US layout, as guns default to). */
export function createEvdevDecoder(onCode: (code: string) => void) {
  let shift = 0;
  let buffer = "";
  let pending = new Uint8Array(0);
  return (chunk: Uint8Array) => {
    const data = new Uint8Array(pending.length + chunk.length);
    data.set(pending);
    data.set(chunk, pending.length);
    const whole = data.length - (data.length % EVENT_SIZE);
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    for (let o = 0; o < whole; o += EVENT_SIZE) {
      const type = view.getUint16(o + 16, true);
      const code = view.getUint16(o + 18, true);
      const value = view.getInt32(o + 20, true);
      if (type !== EV_KEY) continue;
      if (SHIFTS.has(code)) shift = Math.max(0, shift + (value === 1 ? 1 : value === 0 ? -1 : 0));
      else if (value !== 1) continue;
      else if (ENTERS.has(code)) {
        if (buffer) onCode(buffer);
        buffer = "";
      } else if (KEYS[code]) buffer += KEYS[code]![shift ? 1 : 0];
    }
    pending = data.slice(whole);
  };
}

/** Builds the events a gun sends for `text` + Enter: for tests and recorded fixtures. */
export function eventsFor(text: string): Uint8Array {
  const reverse = new Map<string, [number, boolean]>();
  for (const [code, [plain, shifted]] of Object.entries(KEYS)) {
    reverse.set(plain, [Number(code), false]);
    if (!reverse.has(shifted)) reverse.set(shifted, [Number(code), true]);
  }
  const events: [number, number, number][] = [];
  for (const ch of text) {
    const [code, shifted] = reverse.get(ch)!;
    if (shifted) events.push([EV_KEY, 42, 1]);
    events.push([EV_KEY, code, 1], [0, 0, 0], [EV_KEY, code, 0]);
    if (shifted) events.push([EV_KEY, 42, 0]);
  }
  events.push([EV_KEY, 28, 1], [EV_KEY, 28, 0]);
  const out = new Uint8Array(events.length * EVENT_SIZE);
  const view = new DataView(out.buffer);
  events.forEach(([t, c, v], i) => {
    view.setUint16(i * EVENT_SIZE + 16, t, true);
    view.setUint16(i * EVENT_SIZE + 18, c, true);
    view.setInt32(i * EVENT_SIZE + 20, v, true);
  });
  return out;
}

const EVIOCGRAB = 0x40044590;
let ioctl: ((fd: number, req: number, arg: number) => number) | null | undefined;
/** Grabs the device; false when it cannot (not an input device, no libc): then reading still works. */
function grab(fd: number): boolean {
  if (ioctl === undefined) {
    try {
      const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
      const lib = dlopen("libc.so.6", { ioctl: { args: [FFIType.i32, FFIType.u64, FFIType.i32], returns: FFIType.i32 } });
      ioctl = (f, r, a) => lib.symbols.ioctl(f, r, a) as number;
    } catch {
      ioctl = null;
    }
  }
  return !!ioctl && ioctl(fd, EVIOCGRAB, 1) === 0;
}

export interface EvdevScannerOptions {
  id: string;
  /** The hardware the box may open (drivers/devices.ts). */
  devices: DeviceAccess;
  path: string;
  onCode: (code: string) => void;
  onStatus: (status: "online" | "offline", detail?: string) => void;
  retryMs?: number;
}

/** Reads a keyboard-wedge gun from its input device; unplugged, it retries until it is back. */
export function startEvdevScanner(o: EvdevScannerOptions): { stop(): void } {
  let stopped = false;
  let stream: ReadStream | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const again = (detail: string) => {
    stream = null;
    o.onStatus("offline", detail);
    if (!stopped) timer = setTimeout(open, o.retryMs ?? 1000);
  };
  function open() {
    if (stopped) return;
    if (!existsSync(o.path)) return again("not plugged in");
    let fd: number;
    try {
      fd = o.devices.openDevice(o.path, "evdev", constants.O_RDONLY); // an allowed input device, a character device once open
    } catch (e) {
      return again(e instanceof Error ? e.message : String(e));
    }
    const grabbed = grab(fd);
    const decode = createEvdevDecoder(o.onCode);
    const s = createReadStream("", { fd, highWaterMark: EVENT_SIZE * 64 });
    stream = s;
    o.onStatus("online", grabbed ? undefined : "reading without an exclusive grab");
    s.on("data", (c) => decode(c as Buffer));
    s.on("error", (e: NodeJS.ErrnoException) => {
      s.destroy();
      again(e.code === "ENODEV" ? "unplugged" : e.message);
    });
    s.on("end", () => {
      // A real input device never ends; a file or a vanished device does.
      if (stream === s && !stopped) again("unplugged");
    });
  }
  open();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      stream?.destroy();
    },
  };
}
