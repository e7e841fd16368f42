import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, openSync, writeSync, closeSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deviceAccess } from "../devices";
import { startSerialScanner } from "./serial";

/** A socat pty pair is a faithful stand-in for a USB-serial gun (STACK-NOTES), linked into a test device root. */
function fakeGun(dir: string) {
  const p = Bun.spawn(["socat", `pty,raw,echo=0,link=${join(dir, "dev/ttyACM0")}`, `pty,raw,echo=0,link=${join(dir, "host")}`], { stderr: "ignore" });
  return p;
}
const until = async (cond: () => boolean, ms = 5000) => {
  const t = Date.now();
  while (!cond()) {
    if (Date.now() - t > ms) throw new Error("timed out");
    await Bun.sleep(20);
  }
};
const send = (dir: string, text: string) => {
  const fd = openSync(join(dir, "host"), "w");
  writeSync(fd, text);
  closeSync(fd);
};

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((f) => f()));

test("codes from a serial gun arrive; unplugged it goes offline, plugged back it recovers", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gun-"));
  mkdirSync(join(dir, "dev"));
  const devices = deviceAccess({ sysRoot: join(dir, "sys"), devRoot: join(dir, "dev") });
  let socat = fakeGun(dir);
  cleanup.push(() => socat.kill());
  await until(() => existsSync(join(dir, "dev/ttyACM0")) && existsSync(join(dir, "host")));
  const codes: string[] = [];
  const status: string[] = [];
  const gun = startSerialScanner({
    id: "g1",
    devices,
    path: join(dir, "dev/ttyACM0"),
    onCode: (c) => codes.push(c),
    onStatus: (s) => status.push(s),
    retryMs: 100,
  });
  cleanup.push(() => gun.stop());
  await until(() => status.includes("online"));
  send(dir, "!T!T:42\r\n");
  await until(() => codes.length === 1);
  expect(codes).toEqual(["!T!T:42"]);

  socat.kill(); // unplug
  await until(() => status.at(-1) === "offline");
  socat = fakeGun(dir); // plug back in
  await until(() => status.filter((s) => s === "online").length === 2);
  send(dir, "!I!I:7,Shirt\n");
  await until(() => codes.length === 2);
  expect(codes[1]).toBe("!I!I:7,Shirt");
}, 20_000);

test("a gun path outside the allowed devices is never opened: the reader says why and stays offline", async () => {
  const dir = mkdtempSync(join(tmpdir(), "gun-"));
  const devices = deviceAccess({ sysRoot: join(dir, "sys"), devRoot: join(dir, "dev") });
  const status: string[] = [];
  const gun = startSerialScanner({ id: "g2", devices, path: "/etc/passwd", onCode: () => {}, onStatus: (s, d) => status.push(`${s}: ${d}`), retryMs: 10_000 });
  cleanup.push(() => gun.stop());
  await until(() => status.length > 0);
  expect(status[0]).toStartWith("offline: path: must be a device under");
});
