import { closeSync, constants, existsSync } from "node:fs";
import { connect } from "node:net";
import { type DeviceAccess, DevicePathError } from "../devices";
import { configureSerialLine, writeAll } from "../serial";
import { discoverPrinters } from "./discovery";

/** Where a printer is: a USB printer-class device, a USB-serial tty (by path, or by vendor and product id), a network printer, or Bluetooth RFCOMM. */
export type PrinterTarget =
  | { kind: "usblp"; path: string }
  | { kind: "serial"; path?: string; vendorId?: string; productId?: string; serialNumber?: string; baud: number }
  | { kind: "tcp"; host: string; port: number }
  | { kind: "rfcomm"; path: string };

export class PrinterError extends Error {}

/**
 * Sends bytes to a printer, or fails within `timeoutMs` with a reason a person reads. A
 * missing, stalled or unplugged printer never blocks longer than that, nor blocks the box
 * meanwhile: device writes are non-blocking and wait between tries. Only hardware `devices`
 * allows is opened, and serial printers chosen by vendor and product id are looked up under
 * its roots.
 */
export async function sendToPrinter(devices: DeviceAccess, target: PrinterTarget, bytes: Uint8Array, timeoutMs = 10_000): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const abort = new AbortController();
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abort.abort(); // stop the writer and hang up on a stalled network printer
      reject(new PrinterError(`The printer did not take the job within ${Math.round(timeoutMs / 1000)} s (off, out of paper or unplugged?)`));
    }, timeoutMs);
  });
  try {
    await Promise.race([send(devices, target, bytes, abort.signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The tty of a serial printer: its path, or today's tty of the USB device with that vendor and product id. */
function serialPath(devices: DeviceAccess, t: Extract<PrinterTarget, { kind: "serial" }>): string {
  if (!t.vendorId || !t.productId) return t.path ?? "";
  const d = discoverPrinters(devices.roots).find(
    (x) => x.kind === "serial" && x.vendorId === t.vendorId && x.productId === t.productId && (!t.serialNumber || x.serialNumber === t.serialNumber),
  );
  if (!d) throw new PrinterError(`The printer is not connected (no USB device ${t.vendorId}:${t.productId})`);
  return d.path;
}

async function send(devices: DeviceAccess, t: PrinterTarget, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
  if (t.kind === "tcp") return sendTcp(devices, t.host, t.port, bytes, signal);
  const path = t.kind === "serial" ? serialPath(devices, t) : t.path;
  const node = path && refuseOutsideDevices(() => devices.checkDevicePath(path, t.kind));
  if (!node || !existsSync(node)) throw new PrinterError(`The printer is not connected (${path || "no device"} is missing)`);
  if (t.kind === "serial") {
    await configureSerialLine(node, t.baud).catch((e: Error) => {
      throw new PrinterError(`Cannot set up the printer's port: ${e.message}`);
    });
  }
  await writeDevice(devices, t.kind, path, bytes, signal);
}

/** A saved path or host that is not (or no longer) allowed fails the job with the reason, and is never opened. */
function refuseOutsideDevices<T>(check: () => T): T {
  try {
    return check();
  } catch (e) {
    throw notAllowed(e);
  }
}
const notAllowed = (e: unknown) => (e instanceof DevicePathError ? new PrinterError(`Not sent: ${e.message.replace(/^(path|host|port): /, "")}`) : e);

/**
 * Writes to a device without ever blocking the event loop: O_NONBLOCK, and on EAGAIN (the
 * printer's buffer is full) wait 10 ms and try again until done or aborted. The device is
 * opened through openDevice (allow-list, then fstat); O_APPEND means nothing to a device and
 * lets a plain file standing in for one (test root only) keep every job.
 */
async function writeDevice(devices: DeviceAccess, kind: "usblp" | "serial" | "rfcomm", path: string, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
  let fd: number;
  try {
    fd = refuseOutsideDevices(() => devices.openDevice(path, kind, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY | constants.O_APPEND));
  } catch (e) {
    if (e instanceof PrinterError) throw e;
    throw deviceError(e as NodeJS.ErrnoException);
  }
  try {
    await writeAll(fd, bytes, { signal, pollMs: 10, chunk: 4096 }).catch((e) => {
      throw deviceError(e as NodeJS.ErrnoException);
    });
  } finally {
    closeSync(fd);
  }
}

function deviceError(err: NodeJS.ErrnoException): PrinterError {
  if (err.code === "EIO" || err.code === "ENODEV") return new PrinterError("The printer was unplugged during the job");
  // A FIFO or device with nobody at the other end (ENXIO), or gone (ENOENT).
  if (err.code === "ENXIO" || err.code === "ENOENT") return new PrinterError("The printer is not connected");
  return new PrinterError(`Printer returned error during print: ${err.message}`);
}

/**
 * A network printer: the host is resolved and checked (a LAN address, a printer port) before
 * connecting to exactly that address. Whatever went wrong on the wire, the job fails with the
 * same sentence, so the journal cannot be used to tell closed ports from missing hosts.
 */
async function sendTcp(devices: DeviceAccess, host: string, port: number, bytes: Uint8Array, signal: AbortSignal): Promise<void> {
  const ip = await devices.lanPrinterAddress(host, port).catch((e) => Promise.reject(notAllowed(e)));
  return new Promise((resolve, reject) => {
    const s = connect({ host: ip, port }, () => s.end(Buffer.from(bytes)));
    signal.addEventListener("abort", () => s.destroy());
    s.on("close", (hadError) => (hadError ? undefined : resolve()));
    s.on("error", () => {
      s.destroy();
      reject(new PrinterError(`The network printer at ${host}:${port} did not answer`));
    });
  });
}
