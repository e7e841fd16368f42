import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sendToPrinter } from "./transports";

test("a USB printer-class device receives the bytes (a file stands in for /dev/usb/lp0)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "lp-"));
  const lp = join(dir, "lp0");
  writeFileSync(lp, "");
  await sendToPrinter({ kind: "usblp", path: lp }, new TextEncoder().encode("^XA^XZ"));
  expect(readFileSync(lp, "utf8")).toBe("^XA^XZ");
  await expect(sendToPrinter({ kind: "usblp", path: join(dir, "lp9") }, new Uint8Array([1]))).rejects.toThrow("not connected");
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
  await expect(sendToPrinter({ kind: "tcp", host: "127.0.0.1", port }, new Uint8Array([1]), 2000)).rejects.toThrow("Cannot reach the network printer");
});

test("a stalled printer times out instead of blocking the counter", async () => {
  // A server that accepts but never reads or closes: the job cannot finish.
  const server = createServer(() => {});
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const t0 = performance.now();
  await expect(sendToPrinter({ kind: "tcp", host: "127.0.0.1", port }, new Uint8Array(8 * 1024 * 1024), 500)).rejects.toThrow("did not take the job within");
  expect(performance.now() - t0).toBeLessThan(2000);
  server.close();
});
