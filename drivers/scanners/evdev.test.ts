import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deviceAccess } from "../devices";
import { createEvdevDecoder, EVENT_SIZE, eventsFor, startEvdevScanner } from "./evdev";

test("input events decode to the scanned text, shift and all, even split mid-event", () => {
  const codes: string[] = [];
  const feed = createEvdevDecoder((c) => codes.push(c));
  const bytes = new Uint8Array([...eventsFor("!I!I:77,Shirt"), ...eventsFor("!T!T:5")]);
  // Chunks that cut events in half, as reads from the device may.
  for (let i = 0; i < bytes.length; i += EVENT_SIZE + 7) feed(bytes.slice(i, i + EVENT_SIZE + 7));
  expect(codes).toEqual(["!I!I:77,Shirt", "!T!T:5"]);
});

test("the reader delivers codes from the device file and reports its state", async () => {
  const dir = mkdtempSync(join(tmpdir(), "evdev-"));
  mkdirSync(join(dir, "dev/input"), { recursive: true });
  const devices = deviceAccess({ sysRoot: join(dir, "sys"), devRoot: join(dir, "dev") }); // a test root: a plain file may stand in for the device
  const path = join(dir, "dev/input/event7");
  writeFileSync(path, eventsFor("!T!T:900"));
  const codes: string[] = [];
  const status: string[] = [];
  const gun = startEvdevScanner({
    id: "e",
    devices,
    path,
    onCode: (c) => codes.push(c),
    onStatus: (s, d) => status.push(`${s}${d ? `: ${d}` : ""}`),
    retryMs: 10_000,
  });
  for (let i = 0; i < 100 && codes.length === 0; i++) await Bun.sleep(20);
  gun.stop();
  expect(codes).toEqual(["!T!T:900"]);
  // A plain file cannot be grabbed: the reader says so rather than pretending.
  expect(status[0]).toBe("online: reading without an exclusive grab");
});
