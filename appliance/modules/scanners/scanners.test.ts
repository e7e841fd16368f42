import { afterAll, beforeAll, expect, test } from "bun:test";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { until } from "../../test/poll";

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
  box = await testBox({ demo: true, env: { IRONBOX_EVENTS_RECHECK_MS: "100" } });
  // The gun's tty is linked into the box's test device root, as udev links /dev/ttyACM0.
  mkdirSync(join(box.dir, "dev"), { recursive: true });
  socat = Bun.spawn(["socat", `pty,raw,echo=0,link=${join(box.dir, "dev/ttyACM0")}`, `pty,raw,echo=0,link=${join(dir, "host")}`], { stderr: "ignore" });
  await until(() => existsSync(join(dir, "host")), { what: "socat's pty pair" });
  // udev's stable name for it says what it is: a scanner (a shop's admin may add only those, issue 22).
  mkdirSync(join(box.dir, "dev/serial/by-id"), { recursive: true });
  symlinkSync(join(box.dir, "dev/ttyACM0"), join(box.dir, "dev/serial/by-id/usb-Honeywell_Imaging___Mobility_Xenon_1900-if00"));
  const agent = await box.agentToken();
  admin = await box.employeeToken(ADMIN.pin, agent);
  clerk = await box.employeeToken(3333, agent); // the demo's HQ employee
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
  const gun = { id: "counter-gun", name: "Counter gun", kind: "serial", path: join(box.dir, "dev/ttyACM0"), baud: 9600 };
  expect((await box.call("PUT", "/api/v1/scanners/", { token: clerk, body: [gun] })).status).toBe(403);
  expect((await box.call("PUT", "/api/v1/scanners/", { token: admin, body: [gun] })).status).toBe(200);

  const paired = await box.app.handle(new Request(`http://localhost/api/v1/events?token=${clerk}&gun=counter-gun`));
  const other = await box.app.handle(new Request(`http://localhost/api/v1/events?token=${clerk}&gun=another-gun`));
  expect(paired.headers.get("content-type")).toBe("text/event-stream");
  const reader = paired.body!.getReader();
  const otherReader = other.body!.getReader();
  await readUntil(reader, "connected");
  await readUntil(otherReader, "connected");
  await until(async () => (await box.call("GET", "/api/v1/scanners/", { token: clerk })).json.data[0].status === "online", {
    what: "the gun online",
    everyMs: 50,
  });

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

/** A stream's text until `ms` pass or it ends; `ended` says whether the box closed it. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number) {
  const dec = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) return { text, ended: false };
    const r = await Promise.race([reader.read(), Bun.sleep(left).then(() => null)]);
    if (!r) return { text, ended: false };
    if (r.done) return { text, ended: true };
    text += dec.decode(r.value);
  }
}
const stream = async (token: string, gun?: string) => {
  const res = await box.app.handle(new Request(`http://localhost/api/v1/events?token=${token}${gun ? `&gun=${gun}` : ""}`));
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  await readUntil(reader, "connected");
  return reader;
};
const shopToken = async (user: string, pin: number) => box.employeeToken(pin, await box.agentToken(user, "shop-demo-2026"));

test("PUT /scanners/: only allowed input or serial devices under the device root (422 otherwise); every change audited with who and what", async () => {
  const dev = join(box.dir, "dev");
  mkdirSync(join(dev, "input"), { recursive: true });
  mkdirSync(join(dev, "serial/by-id"), { recursive: true });
  writeFileSync(join(box.dir, "autorun.sh"), "");
  symlinkSync(join(box.dir, "autorun.sh"), join(dev, "serial/by-id/usb-evil-if00"));
  const put = (g: object) => box.call("PUT", "/api/v1/scanners/", { token: admin, body: [{ id: "g", name: "Gun", ...g }] });
  for (const [g, message] of [
    [{ kind: "serial", path: "/etc/passwd" }, "must be a device under"],
    [{ kind: "serial", path: `${dev}/../autorun.sh` }, "must be a device under"],
    [{ kind: "serial", path: join(dev, "usb/lp0") }, "ttyUSB*, ttyACM*, rfcomm* or serial/by-id/*"],
    [{ kind: "evdev", path: join(dev, "ttyACM0") }, "input/event* or input/by-id/*"],
    [{ kind: "serial", path: join(dev, "serial/by-id/usb-evil-if00") }, "leads elsewhere"],
    [{ kind: "hid", vendorId: 1, productId: 2, agent_id: 999 }, "agent_id: no such shop"],
  ] as [object, string][]) {
    const r = await put(g);
    expect([JSON.stringify(g), r.status, r.json.message]).toEqual([JSON.stringify(g), 422, expect.stringContaining(message)]);
  }
  const before = await box.database.client.execute("SELECT count(*) AS n FROM audit_log WHERE entity = 'scanners'");
  writeFileSync(join(dev, "input/event3"), ""); // a test root: a plain file may stand in for the input device
  const wedge = { id: "wedge", name: "Wedge", kind: "evdev", path: join(dev, "input/event3") };
  const counter = { id: "counter-gun", name: "Counter gun", kind: "serial", path: join(dev, "ttyACM0"), baud: 9600 };
  expect((await box.call("PUT", "/api/v1/scanners/", { token: admin, body: [counter, wedge] })).status).toBe(200);
  expect((await box.call("PUT", "/api/v1/scanners/", { token: admin, body: [counter] })).status).toBe(200);
  const rows = await box.database.client.execute("SELECT action, employee_id, detail FROM audit_log WHERE entity = 'scanners' ORDER BY id");
  expect(rows.rows.length).toBe(Number(before.rows[0]!.n) + 2);
  const [added, removed] = rows.rows.slice(-2).map((r) => ({ action: r.action, employee_id: r.employee_id, detail: JSON.parse(String(r.detail)) }));
  expect(added).toMatchObject({ action: "configure", detail: { added: [{ id: "wedge", path: wedge.path }], removed: [] } });
  expect(added!.employee_id).toBeGreaterThan(0);
  expect(removed).toMatchObject({ action: "configure", detail: { added: [], changed: [], removed: ["wedge"] } });
});

test("events: a gun kept for one shop sends its scans to that shop's tablets (and HQ's) only", async () => {
  const agents = (await box.call("GET", "/api/v1/agents/", { token: admin })).json.data as { id: number; user_name: string }[];
  const mosta = agents.find((a) => a.user_name === "mosta")!.id;
  const counter = { id: "counter-gun", name: "Counter gun", kind: "serial", path: join(box.dir, "dev/ttyACM0"), baud: 9600, agent_id: mosta };
  expect((await box.call("PUT", "/api/v1/scanners/", { token: admin, body: [counter] })).status).toBe(200);
  const mostaToken = await shopToken("mosta", 7777);
  const birkirkaraToken = await shopToken("birkirkara", 6666);
  // A shop's tablet is offered its own and the shared guns only.
  expect((await box.call("GET", "/api/v1/scanners/", { token: birkirkaraToken })).json.data).toEqual([]);
  expect((await box.call("GET", "/api/v1/scanners/", { token: mostaToken })).json.data.map((g: { id: string }) => g.id)).toEqual(["counter-gun"]);
  const [m, b, hq] = [await stream(mostaToken, "counter-gun"), await stream(birkirkaraToken, "counter-gun"), await stream(clerk, "counter-gun")];
  await until(async () => (await box.call("GET", "/api/v1/scanners/", { token: mostaToken })).json.data[0].status === "online", {
    what: "the gun online",
    everyMs: 50,
  });
  const fd = openSync(join(dir, "host"), "w");
  writeSync(fd, "!T!T:777\r\n");
  closeSync(fd);
  expect(await readUntil(m, "!T!T:777")).toContain(`"agent_id":${mosta}`);
  // A shop's admin cannot hand a gun to another shop (its scans would go there); its own shop is fine.
  const birkirkaraAdmin = await shopToken("birkirkara", 5555);
  const birkirkara = agents.find((a) => a.user_name === "birkirkara")!.id;
  const other = { ...counter, id: "back-gun", agent_id: mosta };
  const refused = await box.call("PUT", "/api/v1/scanners/", { token: birkirkaraAdmin, body: [counter, other] });
  expect([refused.status, refused.json.message]).toEqual([422, "agent_id: no such shop"]);
  expect((await box.call("PUT", "/api/v1/scanners/", { token: birkirkaraAdmin, body: [counter, { ...other, agent_id: birkirkara }] })).status).toBe(200);
  expect((await box.call("PUT", "/api/v1/scanners/", { token: admin, body: [counter] })).status).toBe(200);
  expect(await readUntil(hq, "!T!T:777")).toContain("event: scan");
  expect((await drain(b, 300)).text).not.toContain("777");
  for (const r of [m, b, hq]) await r.cancel();
}, 20_000);

test("events: print jobs go to their own shop's tablets (HQ sees every shop's)", async () => {
  mkdirSync(join(box.dir, "dev/usb"), { recursive: true });
  writeFileSync(join(box.dir, "dev/usb/lp0"), "");
  const printer = { id: "labels", name: "Label printer", language: "PPLZ", target: { kind: "usblp", path: join(box.dir, "dev/usb/lp0") } };
  expect((await box.call("PUT", "/api/v1/printers/", { token: admin, body: [printer] })).status).toBe(200);
  const birkirkaraAdmin = await shopToken("birkirkara", 5555);
  const [b, m, hq] = [await stream(await shopToken("birkirkara", 6666)), await stream(await shopToken("mosta", 7777)), await stream(clerk)];
  const job = (await box.call("POST", "/api/v1/printers/labels/test", { token: birkirkaraAdmin })).json.data.jobs[0];
  expect(await readUntil(b, `"job":${job}`)).toContain("event: print");
  expect(await readUntil(hq, `"job":${job}`)).toContain("event: print");
  expect((await drain(m, 300)).text).not.toContain("event: print");
  for (const r of [b, m, hq]) await r.cancel();
});

test("events: a stream ends when its session is logged out or revoked; a live one keeps going", async () => {
  const agent = await box.agentToken();
  const leaving = await box.employeeToken(2222, agent);
  const staying = await box.employeeToken(1111, agent);
  const [gone, kept] = [await stream(leaving), await stream(staying)];
  expect((await box.call("GET", "/api/v1/logout/employee", { token: leaving })).status).toBe(200);
  const ended = await drain(gone, 2000);
  expect(ended).toMatchObject({ ended: true, text: expect.stringContaining("event: end") });
  expect((await drain(kept, 400)).ended).toBe(false);
  // Logging the shop out ends its employees' streams too.
  expect((await box.call("GET", "/api/v1/logout/agent", { token: agent })).status).toBe(200);
  expect((await drain(kept, 2000)).ended).toBe(true);
  // And a logged-out token cannot open a new one.
  expect((await box.app.handle(new Request(`http://localhost/api/v1/events?token=${leaving}`))).status).toBe(401);
});

test("stored gun settings that no longer validate read as 'settings invalid' with what is wrong, and saving a good list replaces them", async () => {
  const hqAdmin = await box.employeeToken(ADMIN.pin);
  const corrupt = JSON.stringify([{ id: "counter-gun", name: "Counter gun", kind: "serial", path: "ttyACM0", baud: 9600 }]);
  await box.database.client.execute({
    sql: "INSERT INTO box_settings (key, value) VALUES ('scanners', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    args: [corrupt],
  });
  const settings = await box.call("GET", "/api/v1/scanners/settings", { token: hqAdmin });
  expect(settings.json.data).toEqual({ guns: [], invalid: { message: "#1 path: must be an absolute device path" } });
  expect((await box.call("GET", "/api/v1/scanners/", { token: hqAdmin })).json.data).toEqual([]);
  expect((await box.database.client.execute("SELECT value FROM box_settings WHERE key = 'scanners'")).rows[0]!.value).toBe(corrupt);
  expect((await box.call("GET", "/api/v1/scanners/settings", { token: clerk })).status).toBe(403);

  const gun = { id: "counter-gun", name: "Counter gun", kind: "serial", path: join(box.dir, "dev/ttyACM0"), baud: 9600, agent_id: null };
  expect((await box.call("PUT", "/api/v1/scanners/", { token: hqAdmin, body: [gun] })).status).toBe(200);
  const fixed = (await box.call("GET", "/api/v1/scanners/settings", { token: hqAdmin })).json.data;
  expect(fixed.invalid).toBeUndefined();
  expect(fixed.guns.map((g: { id: string }) => g.id)).toEqual(["counter-gun"]);
});

test("issue 22: a shop's admin cannot save a keyboard as a gun (it would stream typing to tablets); scanners and HQ's explicit choice can", async () => {
  const dev = join(box.dir, "dev");
  const sys = join(box.dir, "sys");
  mkdirSync(join(dev, "input/by-id"), { recursive: true });
  for (const n of [0, 4, 5, 6]) writeFileSync(join(dev, `input/event${n}`), "");
  symlinkSync("../event0", join(dev, "input/by-id/usb-Logitech_USB_Keyboard-event-kbd"));
  symlinkSync("../event4", join(dev, "input/by-id/usb-Honeywell_Imaging___Mobility_1900_18012B4C19-event-kbd"));
  // event5: no telling by-id name, but sysfs says a Symbol (Zebra) device; event6: a keyboard by sysfs.
  for (const [n, vendor, name] of [
    [5, "05e0", "Symbol Technologies, Inc, 2008 Symbol Bar Code Scanner"],
    [6, "046d", "Logitech USB Keyboard"],
  ] as const) {
    mkdirSync(join(sys, `class/input/event${n}/device/id`), { recursive: true });
    writeFileSync(join(sys, `class/input/event${n}/device/id/vendor`), `${vendor}\n`);
    writeFileSync(join(sys, `class/input/event${n}/device/name`), `${name}\n`);
  }
  const shopAdmin = await shopToken("birkirkara", 5555);
  const hqAdmin = await box.employeeToken(1111); // the demo's HQ admin (HQ staff)
  const put = (token: string, guns: object[]) => box.call("PUT", "/api/v1/scanners/", { token, body: guns });
  const gun = (id: string, g: object) => ({ id, name: id, ...g });
  const keyboards = [
    gun("kbd0", { kind: "evdev", path: join(dev, "input/event0") }),
    gun("kbd-byid", { kind: "evdev", path: join(dev, "input/by-id/usb-Logitech_USB_Keyboard-event-kbd") }),
    gun("kbd6", { kind: "evdev", path: join(dev, "input/event6") }),
    gun("kbd-hid", { kind: "hid", vendorId: 0x046d, productId: 0xc31c }),
  ];
  // Attack: each keyboard, as a shop admin: 422 with why, and nothing saved.
  const saved = (await box.call("GET", "/api/v1/scanners/", { token: hqAdmin })).json.data;
  for (const k of keyboards) {
    const r = await put(shopAdmin, [k]);
    expect([k.id, r.status, r.json.message]).toEqual([k.id, 422, expect.stringContaining("does not identify as a barcode scanner")]);
  }
  expect((await box.call("GET", "/api/v1/scanners/", { token: hqAdmin })).json.data).toEqual(saved);

  // Control: devices that identify as scanners, by by-id name, sysfs maker or USB vendor.
  const scanners = [
    gun("honeywell", { kind: "evdev", path: join(dev, "input/by-id/usb-Honeywell_Imaging___Mobility_1900_18012B4C19-event-kbd") }),
    gun("honeywell-node", { kind: "evdev", path: join(dev, "input/event4") }),
    gun("symbol", { kind: "evdev", path: join(dev, "input/event5") }),
    gun("zebra-hid", { kind: "hid", vendorId: 0x05e0, productId: 0x1200 }),
  ];
  const ok = await put(shopAdmin, scanners);
  expect([ok.status, ok.json.message]).toEqual([200, undefined]);
  // The device list says which keyboards are scanners.
  const listed = (await box.call("GET", "/api/v1/scanners/devices", { token: hqAdmin })).json.data.keyboards;
  expect(listed.map((k: { name: string; scanner: boolean }) => [k.name, k.scanner]).sort()).toEqual([
    ["usb-Honeywell_Imaging___Mobility_1900_18012B4C19-event-kbd", true],
    ["usb-Logitech_USB_Keyboard-event-kbd", false],
  ]);

  // HQ staff may add another device explicitly (a no-name gun); a shop admin may then keep it, renamed, but not repoint it.
  expect((await put(hqAdmin, [...scanners, keyboards[0]!])).status).toBe(200);
  expect((await put(shopAdmin, [...scanners, { ...keyboards[0]!, name: "No-name gun" }])).status).toBe(200);
  const moved = await put(shopAdmin, [...scanners, { ...keyboards[0]!, path: join(dev, "input/event6") }]);
  expect(moved.status).toBe(422);
  expect((await put(hqAdmin, [])).status).toBe(200);
});

test("issue 22: a shop's admin cannot save a serial port that is not a scanner as a gun; serial scanners and HQ's explicit choice can", async () => {
  const dev = join(box.dir, "dev");
  const sys = join(box.dir, "sys");
  mkdirSync(join(dev, "serial/by-id"), { recursive: true });
  for (const n of ["ttyUSB0", "ttyUSB1", "ttyACM1", "ttyACM2", "ttyACM3", "rfcomm0"]) writeFileSync(join(dev, n), "");
  symlinkSync("../../ttyUSB0", join(dev, "serial/by-id/usb-FTDI_FT232R_USB_UART_A10KZ3-if00-port0"));
  symlinkSync("../../ttyACM2", join(dev, "serial/by-id/usb-Newland_Auto-ID_NLS-HR22_20200925-if00"));
  // sysfs as the kernel lays it out: class/tty/<tty>/device leads into the USB interface (ACM) or
  // the usb-serial port under it (ttyUSB); the USB device above holds idVendor and the names.
  const usb = (tty: string, port: string, vendor: string, product: string, manufacturer: string, iface?: string) => {
    const device = join(sys, "devices/pci0000:00/usb1", port);
    const ifaceDir = join(device, `${port}:1.0`);
    const target = tty.startsWith("ttyUSB") ? join(ifaceDir, tty) : ifaceDir;
    mkdirSync(target, { recursive: true });
    mkdirSync(join(sys, "class/tty", tty), { recursive: true });
    symlinkSync(target, join(sys, "class/tty", tty, "device"));
    writeFileSync(join(device, "idVendor"), `${vendor}\n`);
    writeFileSync(join(device, "product"), `${product}\n`);
    writeFileSync(join(device, "manufacturer"), `${manufacturer}\n`);
    if (iface) writeFileSync(join(ifaceDir, "interface"), `${iface}\n`);
  };
  usb("ttyUSB0", "1-1", "0403", "FT232R USB UART", "FTDI"); // a bare USB-serial cable: could be wired to anything
  usb("ttyACM3", "1-2", "2341", "Uno", "Arduino (www.arduino.cc)", "CDC Abstract Control Model"); // a board that prints whatever it likes
  usb("ttyACM1", "1-3", "0c2e", "Xenon 1900", "Honeywell"); // a gun in USB-serial (CDC) mode, by its maker
  usb("ttyUSB1", "1-4", "1a86", "USB2.0-Serial", "wch.cn", "2D Barcode Scanner"); // a gun's own CH340, by its interface's name
  const shopAdmin = await shopToken("birkirkara", 5555);
  const hqAdmin = await box.employeeToken(1111);
  const put = (token: string, guns: object[]) => box.call("PUT", "/api/v1/scanners/", { token, body: guns });
  const gun = (id: string, path: string) => ({ id, name: id, kind: "serial", path: join(dev, path), baud: 9600 });
  const others = [
    gun("ftdi", "ttyUSB0"),
    gun("ftdi-byid", "serial/by-id/usb-FTDI_FT232R_USB_UART_A10KZ3-if00-port0"),
    gun("arduino", "ttyACM3"),
    gun("bluetooth", "rfcomm0"),
  ];
  // Attack: each, as a shop admin: 422 with why, and nothing saved.
  const saved = (await box.call("GET", "/api/v1/scanners/", { token: hqAdmin })).json.data;
  for (const g of others) {
    const r = await put(shopAdmin, [g]);
    expect([g.id, r.status, r.json.message]).toEqual([g.id, 422, expect.stringContaining(`path: ${g.path} does not identify as a barcode scanner`)]);
  }
  expect((await box.call("GET", "/api/v1/scanners/", { token: hqAdmin })).json.data).toEqual(saved);

  // Control: serial scanners by sysfs maker, by by-id name, by the interface's name.
  const scanners = [
    gun("honeywell-acm", "ttyACM1"),
    gun("newland-byid", "serial/by-id/usb-Newland_Auto-ID_NLS-HR22_20200925-if00"),
    gun("ch340-gun", "ttyUSB1"),
  ];
  const ok = await put(shopAdmin, scanners);
  expect([ok.status, ok.json.message]).toEqual([200, undefined]);
  // The device list says which serial ports are scanners.
  const listed = (await box.call("GET", "/api/v1/scanners/devices", { token: hqAdmin })).json.data.serial as { name: string; scanner: boolean }[];
  const says = Object.fromEntries(listed.map((d) => [d.name, d.scanner]));
  expect(says).toMatchObject({
    ttyUSB0: false,
    "usb-FTDI_FT232R_USB_UART_A10KZ3-if00-port0": false,
    ttyACM3: false,
    ttyACM1: true,
    ttyACM2: true,
    "usb-Newland_Auto-ID_NLS-HR22_20200925-if00": true,
    ttyUSB1: true,
  });

  // HQ staff may add another serial device explicitly; a shop admin may then keep it, but not repoint it.
  expect((await put(hqAdmin, [...scanners, others[0]!])).status).toBe(200);
  expect((await put(shopAdmin, [...scanners, { ...others[0]!, name: "Old gun on a cable" }])).status).toBe(200);
  expect((await put(shopAdmin, [...scanners, { ...others[0]!, path: join(dev, "ttyACM3") }])).status).toBe(422);
  expect((await put(hqAdmin, [])).status).toBe(200);
});
