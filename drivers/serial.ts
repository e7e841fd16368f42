import { readSync, writeSync } from "node:fs";

/**
 * The one way Ironbox drives a serial line (USB-serial printers, CDC barcode guns, the GSM
 * modem). The `serialport` package cannot be used for it: opening a port aborts Bun 1.4.5
 * (`uv_poll_init` unsupported; Bun issues 4622 and 18546, re-checked on this machine), and
 * its `list()` would be a second discovery beside the sysfs walk that drivers/printers/
 * discovery.ts already does (and that tests point at a stand-in tree). So the line is set
 * up with `stty` and the device is read and written with node:fs, opened non-blocking by
 * the caller through drivers/devices.ts (allow-list, then fstat), and polled.
 */

/** Raw mode, no echo, at the device's speed. Throws with stty's own words when it fails. */
export async function configureSerialLine(node: string, baud: number): Promise<void> {
  const p = Bun.spawn(["stty", "-F", node, String(baud), "raw", "-echo"], { stdout: "ignore", stderr: "pipe" });
  if ((await p.exited) !== 0) throw new Error((await new Response(p.stderr).text()).trim() || `stty exited with ${p.exitCode}`);
}

/** A non-blocking read: the byte count, 0 when the other end closed, or null when nothing is there yet. */
export function readAvailable(fd: number, buf: Buffer): number | null {
  try {
    return readSync(fd, buf, 0, buf.length, null);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EAGAIN" || code === "EWOULDBLOCK") return null;
    throw e;
  }
}

/**
 * Writes all of `bytes` to a non-blocking fd without ever blocking the event loop: when the
 * device's buffer is full (EAGAIN) it waits `pollMs` and tries again. Stops quietly once
 * `signal` aborts (the caller decides what an abort means); other errors are thrown as they are.
 */
export async function writeAll(fd: number, bytes: Uint8Array, o: { signal?: AbortSignal; pollMs?: number; chunk?: number } = {}): Promise<boolean> {
  const poll = o.pollMs ?? 10;
  const chunk = o.chunk ?? bytes.length;
  let off = 0;
  while (off < bytes.length) {
    if (o.signal?.aborted) return false;
    try {
      off += writeSync(fd, bytes, off, Math.min(chunk, bytes.length - off));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "EAGAIN" && code !== "EWOULDBLOCK") throw e;
      await Bun.sleep(poll);
    }
  }
  return true;
}
