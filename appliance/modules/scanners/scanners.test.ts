import { afterAll, beforeAll, expect, test } from "bun:test";
import { closeSync, existsSync, mkdtempSync, openSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

/**
 * A gun wired to the box, end to end: a socat pty pair stands in for the USB-serial gun, the
 * real serial driver reads it, and a tablet's event stream for that gun receives the scan.
 */
let box: TestBox;
let admin: string;
let clerk: string;
let socat: ReturnType<typeof Bun.spawn>;
const dir = mkdtempSync(join(tmpdir(), "gun-"));

beforeAll(async () => {
  socat = Bun.spawn(["socat", `pty,raw,echo=0,link=${join(dir, "gun")}`, `pty,raw,echo=0,link=${join(dir, "host")}`], { stderr: "ignore" });
  for (let i = 0; i < 100 && !existsSync(join(dir, "host")); i++) await Bun.sleep(20);
  box = await testBox();
  const agent = await box.agentToken();
  admin = await box.employeeToken(ADMIN.pin, agent);
  await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Clerk", role: "employee", pin: 3333 } });
  clerk = await box.employeeToken(3333, agent);
});
afterAll(() => {
  box.close();
  socat.kill();
});

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, needle: string, ms = 5000) {
  const dec = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  while (!text.includes(needle)) {
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`no ${needle} in: ${text}`);
    const r = await Promise.race([reader.read(), Bun.sleep(left).then(() => ({ done: true, value: undefined }))]);
    if (r.done) throw new Error(`stream ended without ${needle}: ${text}`);
    text += dec.decode(r.value);
  }
  return text;
}

test("a scan from a serial gun reaches the tablet paired with it, and only that one", async () => {
  const gun = { id: "counter-gun", name: "Counter gun", kind: "serial", path: join(dir, "gun"), baud: 9600 };
  expect((await box.call("PUT", "/api/v1/scanners/", { token: clerk, body: [gun] })).status).toBe(403);
  expect((await box.call("PUT", "/api/v1/scanners/", { token: admin, body: [{ ...gun, path: "/etc/passwd;rm" }] })).status).toBe(422);
  expect((await box.call("PUT", "/api/v1/scanners/", { token: admin, body: [{ ...gun, path: "/etc/passwd" }] })).json.message).toBe("path: not a serial device");
  expect((await box.call("PUT", "/api/v1/scanners/", { token: admin, body: [gun] })).status).toBe(200);

  const paired = await box.app.handle(new Request(`http://localhost/api/v1/events?token=${clerk}&gun=counter-gun`));
  const other = await box.app.handle(new Request(`http://localhost/api/v1/events?token=${clerk}&gun=another-gun`));
  expect(paired.headers.get("content-type")).toBe("text/event-stream");
  const reader = paired.body!.getReader();
  const otherReader = other.body!.getReader();
  await readUntil(reader, "connected");
  await readUntil(otherReader, "connected");
  for (let i = 0; i < 100 && (await box.call("GET", "/api/v1/scanners/", { token: clerk })).json.data[0].status !== "online"; i++) await Bun.sleep(50);

  const fd = openSync(join(dir, "host"), "w");
  writeSync(fd, "!T!T:4242\r\n");
  closeSync(fd);
  const text = await readUntil(reader, "!T!T:4242");
  expect(text).toContain("event: scan");
  expect(text).toContain('"gun":"counter-gun"');
  const quiet = await Promise.race([otherReader.read().then(() => "got something"), Bun.sleep(300).then(() => "nothing")]);
  expect(quiet).toBe("nothing");
  await reader.cancel();
  await otherReader.cancel();
  const list = await box.call("GET", "/api/v1/scanners/", { token: clerk });
  expect(list.json.data[0]).toMatchObject({ id: "counter-gun", status: "online" });
}, 20_000);

test("the event stream needs a token", async () => {
  const r = await box.app.handle(new Request("http://localhost/api/v1/events?gun=x"));
  expect(r.status).toBe(401);
});
