import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, openSync, writeSync, closeSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSerialScanner } from "./serial";

/** A socat pty pair is a faithful stand-in for a USB-serial gun (STACK-NOTES). */
function fakeGun(dir: string) {
  const p = Bun.spawn(["socat", `pty,raw,echo=0,link=${join(dir, "gun")}`, `pty,raw,echo=0,link=${join(dir, "host")}`], { stderr: "ignore" });
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
  let socat = fakeGun(dir);
  cleanup.push(() => socat.kill());
  await until(() => existsSync(join(dir, "gun")) && existsSync(join(dir, "host")));
  const codes: string[] = [];
  const status: string[] = [];
  const gun = startSerialScanner({ id: "g1", path: join(dir, "gun"), onCode: (c) => codes.push(c), onStatus: (s) => status.push(s), retryMs: 100 });
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
