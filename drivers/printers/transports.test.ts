import { afterAll, expect, test } from "bun:test";
import { closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deviceAccess } from "../devices";
import { type PrinterTarget, sendToPrinter as sendWith } from "./transports";

/** Real byte streams against stand-ins under a test device root: a socat pty pair, FIFOs, files, loopback sockets. */
const dir = mkdtempSync(join(tmpdir(), "printer-"));
const dev = join(dir, "dev");
mkdirSync(join(dev, "usb"), { recursive: true });
const procs: { kill(): void }[] = [];
afterAll(() => {
  for (const p of procs) p.kill();
});
const devices = deviceAccess({ sysRoot: join(dir, "sys"), devRoot: dev });
const sendToPrinter = (target: PrinterTarget, bytes: Uint8Array, timeoutMs?: number) => sendWith(devices, target, bytes, timeoutMs);

/** A socat pty pair: the printer's end (a tty the box writes to) and the far end we read. */
async function ptyPair(name: string, tty: string) {
  const printer = join(dev, tty);
  const far = join(dir, `${name}-far`);
  const p = Bun.spawn(["socat", `pty,raw,echo=0,link=${printer}`, `pty,raw,echo=0,link=${far}`], { stderr: "ignore" });
  procs.push(p);
  for (let i = 0; i < 100 && !(existsSync(printer) && existsSync(far)); i++) await Bun.sleep(20);
  return { printer, far, proc: p };
}
/** Reads what arrives at a tty until `n` bytes or the deadline, without blocking the loop. */
async function readBytes(path: string, n: number, ms = 3000) {
  const nb = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const out: number[] = [];
  const buf = Buffer.alloc(65536);
  const end = Date.now() + ms;
  while (out.length < n && Date.now() < end) {
    try {
      const got = readSync(nb, buf, 0, buf.length, null);
      out.push(...buf.subarray(0, got));
    } catch {
      await Bun.sleep(10);
    }
  }
  closeSync(nb);
  return Buffer.from(out);
}

test("a USB-serial printer (socat pty pair) receives the exact bytes at 9600 baud", async () => {
  const { printer, far } = await ptyPair("serial", "ttyUSB0");
  const job = Buffer.from("\x1b@Ticket #1042\n\x1dVB\x00");
  const reading = readBytes(far, job.length);
  await Bun.sleep(50);
  await sendToPrinter({ kind: "serial", path: printer, baud: 9600 }, job);
  expect(await reading).toEqual(job);
});

test("a serial printer chosen by vendor and product id is found at whatever tty it has today", async () => {
  const { printer, far } = await ptyPair("byid", "ttyUSB1");
  const sys = join(dir, "sys");
  const usb = join(sys, "devices/pci0000:00/usb1/1-2");
  mkdirSync(join(usb, "1-2:1.0/ttyUSB3"), { recursive: true });
  for (const [f, v] of Object.entries({ idVendor: "1a86", idProduct: "7523", product: "POS-80 receipt printer", manufacturer: "QinHeng" }))
    writeFileSync(join(usb, f), `${v}\n`);
  mkdirSync(join(sys, "class/tty"), { recursive: true });
  symlinkSync("../../devices/pci0000:00/usb1/1-2/1-2:1.0/ttyUSB3", join(sys, "class/tty/ttyUSB3"));
  symlinkSync("../../1-2:1.0", join(usb, "1-2:1.0/ttyUSB3/device"));
  symlinkSync(printer, join(dev, "ttyUSB3"));
  const reading = readBytes(far, 5);
  await Bun.sleep(50);
  await sendToPrinter({ kind: "serial", vendorId: "1a86", productId: "7523", baud: 9600 }, Buffer.from("hello"));
  expect((await reading).toString()).toBe("hello");
  await expect(sendToPrinter({ kind: "serial", vendorId: "04b8", productId: "0e15", baud: 9600 }, Buffer.from("x"))).rejects.toThrow("no USB device 04b8:0e15");
});

test("usblp: a FIFO with a reader gets the bytes; without one the printer is not connected; a file keeps every job", async () => {
  const fifo = join(dev, "usb/lp0");
  Bun.spawnSync(["mkfifo", fifo]);
  await expect(sendToPrinter({ kind: "usblp", path: fifo }, Buffer.from("x"), 1000)).rejects.toThrow("The printer is not connected");
  const reader = Bun.spawn(["cat", fifo], { stdout: "pipe" });
  await Bun.sleep(100);
  await sendToPrinter({ kind: "usblp", path: fifo }, Buffer.from("^XA^XZ"));
  expect(await new Response(reader.stdout).text()).toBe("^XA^XZ");
  const file = join(dev, "usb/lp1");
  writeFileSync(file, "");
  await sendToPrinter({ kind: "usblp", path: file }, Buffer.from("one "));
  await sendToPrinter({ kind: "usblp", path: file }, Buffer.from("two"));
  expect(readFileSync(file, "utf8")).toBe("one two");
  await expect(sendToPrinter({ kind: "usblp", path: join(dev, "usb/lp9") }, Buffer.from("x"))).rejects.toThrow("not connected");
});

test("a printer that stops reading times out, and the box keeps serving meanwhile", async () => {
  const fifo = join(dev, "usb/lp2");
  Bun.spawnSync(["mkfifo", fifo]);
  const reader = Bun.spawn(["sh", "-c", `exec 3<"${fifo}"; sleep 10`]); // opens, never reads
  procs.push(reader);
  await Bun.sleep(100);
  let ticks = 0;
  const tick = setInterval(() => ticks++, 50);
  await expect(sendToPrinter({ kind: "usblp", path: fifo }, new Uint8Array(1 << 20), 800)).rejects.toThrow("did not take the job within");
  clearInterval(tick);
  expect(ticks).toBeGreaterThan(2); // the event loop ran during the wait (counted, not timed)
  reader.kill();
});

test("an unplug in the middle of a job (the pty's far end goes away) fails it as unplugged", async () => {
  const { printer, proc } = await ptyPair("unplug", "ttyUSB2");
  setTimeout(() => proc.kill(), 200); // nobody reads: the job is still going when the cable comes out
  await expect(sendToPrinter({ kind: "serial", path: printer, baud: 9600 }, new Uint8Array(4 << 20), 5000)).rejects.toThrow(
    "The printer was unplugged during the job",
  );
});

test("a network printer on port 9100 receives the bytes; a dead one fails with the reason", async () => {
  let got = Buffer.alloc(0);
  const server = createServer((s) => s.on("data", (d: Buffer) => (got = Buffer.concat([got, d]))));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await sendToPrinter({ kind: "tcp", host: "127.0.0.1", port }, new TextEncoder().encode("hello printer"));
  await Bun.sleep(50);
  expect(got.toString()).toBe("hello printer");
  server.close();
  await expect(sendToPrinter({ kind: "tcp", host: "127.0.0.1", port }, new Uint8Array([1]), 2000)).rejects.toThrow(
    `The network printer at 127.0.0.1:${port} did not answer`,
  );
});

test("a stalled network printer times out instead of blocking the counter", async () => {
  const server = createServer(() => {});
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  // The job's own timeout ended it (its message), not the 8 MiB finally going through.
  await expect(sendToPrinter({ kind: "tcp", host: "127.0.0.1", port }, new Uint8Array(8 * 1024 * 1024), 500)).rejects.toThrow("did not take the job within");
  server.close();
});

test("a saved path that is no device, or a network printer off the LAN, fails the job unsent and touches nothing", async () => {
  const script = join(dir, "run-me.sh");
  writeFileSync(script, "#!/bin/sh\n");
  await expect(sendToPrinter({ kind: "usblp", path: script }, Buffer.from("rm -rf /\n"))).rejects.toThrow("Not sent: must be a device under");
  await expect(sendToPrinter({ kind: "usblp", path: `${dev}/usb/../../run-me.sh` }, Buffer.from("x"))).rejects.toThrow("Not sent: must be a device under");
  symlinkSync(script, join(dev, "usb/lp5"));
  await expect(sendToPrinter({ kind: "usblp", path: join(dev, "usb/lp5") }, Buffer.from("x"))).rejects.toThrow("leads elsewhere");
  await expect(sendToPrinter({ kind: "serial", path: "/etc/passwd", baud: 9600 }, Buffer.from("x"))).rejects.toThrow("Not sent: must be a device under");
  expect(readFileSync(script, "utf8")).toBe("#!/bin/sh\n");
  await expect(sendToPrinter({ kind: "tcp", host: "8.8.8.8", port: 9100 }, Buffer.from("x"))).rejects.toThrow(
    "Not sent: a network printer must be on the shop's network",
  );
  await expect(sendToPrinter({ kind: "tcp", host: "192.168.1.50", port: 22 }, Buffer.from("x"))).rejects.toThrow("Not sent: a network printer listens on 9100");
});
