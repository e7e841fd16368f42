import { openSync, writeSync, closeSync, existsSync } from "node:fs";
import { connect } from "node:net";

/** Where a printer is: a USB printer-class device, a USB-serial tty, a network printer, or Bluetooth RFCOMM. */
export type PrinterTarget =
  | { kind: "usblp"; path: string }
  | { kind: "serial"; path: string; baud: number }
  | { kind: "tcp"; host: string; port: number }
  | { kind: "rfcomm"; path: string };

export class PrinterError extends Error {}

/**
 * Sends bytes to a printer, or fails within `timeoutMs` with a reason a person reads. A
 * missing, stalled or unplugged printer never blocks longer than that.
 */
export async function sendToPrinter(target: PrinterTarget, bytes: Uint8Array, timeoutMs = 10_000): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const abort = new AbortController();
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort(); // hang up on a stalled network printer rather than leave the socket open
      reject(new PrinterError(`The printer did not take the job within ${Math.round(timeoutMs / 1000)} s (off, out of paper or unplugged?)`));
    }, timeoutMs);
  });
  try {
    await Promise.race([send(target, bytes, abort.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function send(t: PrinterTarget, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
  if (t.kind === "tcp") return sendTcp(t.host, t.port, bytes, signal);
  if (!existsSync(t.path)) throw new PrinterError(`The printer is not connected (${t.path} is missing)`);
  if (t.kind === "serial") {
    const p = Bun.spawn(["stty", "-F", t.path, String(t.baud), "raw", "-echo"], { stderr: "pipe" });
    if ((await p.exited) !== 0) throw new PrinterError(`Cannot set up the printer's port: ${(await new Response(p.stderr).text()).trim()}`);
  }
  // A write to a device blocks while the printer is busy or stalled: run it off the event loop.
  await new Promise<void>((resolve, reject) => {
    queueMicrotask(() => {
      let fd: number | undefined;
      try {
        // Append: on a device it is the same as a write; a file standing in for one keeps every job.
        fd = openSync(t.path, "a");
        let off = 0;
        while (off < bytes.length) off += writeSync(fd, bytes, off);
        resolve();
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        reject(new PrinterError(err.code === "EIO" || err.code === "ENODEV" ? "The printer was unplugged during the job" : `Printer returned error during print: ${err.message}`));
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    });
  });
}

function sendTcp(host: string, port: number, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = connect({ host, port }, () => s.end(Buffer.from(bytes)));
    signal.addEventListener("abort", () => s.destroy());
    s.on("close", (hadError) => (hadError ? undefined : resolve()));
    s.on("error", (e) => {
      s.destroy();
      reject(new PrinterError(`Cannot reach the network printer at ${host}:${port}: ${e.message}`));
    });
  });
}
