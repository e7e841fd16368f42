import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deviceAccess } from "../devices";
import { ChannelError } from "./channel";
import { gsmModemChannel } from "./gsmModem";
import { createChannels } from "./index";
import { type ModemSimulator, startModemSimulator } from "./testing/modem-simulator";

let dir: string;
let devRoot: string;
let devices: ReturnType<typeof deviceAccess>;
const sims: ModemSimulator[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ironbox-modem-"));
  devRoot = join(dir, "dev");
  devices = deviceAccess({ sysRoot: join(dir, "sys"), devRoot });
});
afterEach(async () => {
  for (const s of sims.splice(0)) await s.stop();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function modem(name = "ttyUSB0") {
  const sim = await startModemSimulator({ devRoot, dir, name });
  sims.push(sim);
  const ch = createChannels({ smsGatewayUrl: null, modemPath: sim.path, smtpUrl: null, smtpFrom: null }, { devices, timeoutMs: 1500 }).sms;
  if (!ch) throw new Error("no channel");
  return { sim, ch };
}

describe("SMS via a GSM modem (AT commands on a socat pty)", () => {
  test("Maltese text arrives intact (UCS-2), after AT, ATE0 and PDU mode", async () => {
    const { sim, ch } = await modem();
    const text = "Ċensu, il-libsa tiegħek lesta. Ħallas €12.50 — Żebbuġ";
    const res = await ch.send({ key: crypto.randomUUID(), to: "+35699123456", text });
    expect(res.gatewayId).toBe("1");
    expect(sim.messages).toEqual([{ to: "+35699123456", text, parts: 1 }]);
    expect(sim.parts[0]?.dcs).toBe(8);
    expect(sim.commands.slice(0, 4)).toEqual(["AT", "ATE0", "AT+CMGF=0", expect.stringMatching(/^AT\+CMGS=\d+$/)]);
  });

  test("a 300-character message goes as ordered parts that join back to the original", async () => {
    const { sim, ch } = await modem();
    const text = Array.from({ length: 300 }, (_, i) => "Il-ħwejjeġ tiegħek lesti! "[i % 26]).join("");
    const gsm = "Your order 1042 is ready at Ironbox Mosta. ".repeat(7).slice(0, 300);
    await ch.send({ key: crypto.randomUUID(), to: "+35699123456", text });
    await ch.send({ key: crypto.randomUUID(), to: "99123456", text: gsm });
    expect(sim.messages).toEqual([
      { to: "+35699123456", text, parts: 5 },
      { to: "99123456", text: gsm, parts: 2 },
    ]);
    // In order, one reference per message.
    expect(sim.parts.slice(0, 5).map((p) => p.concat?.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(sim.parts.slice(0, 5).map((p) => p.concat?.ref)).size).toBe(1);
    expect(sim.parts.slice(5).map((p) => [p.dcs, p.text.length])).toEqual([
      [0, 153],
      [0, 147],
    ]);
  });

  test("ERROR and +CMS ERROR are reported in plain words; a bad number is not retried", async () => {
    const { sim, ch } = await modem();
    sim.script.cmgs.push("ERROR");
    const e1 = await ch.send({ key: "a", to: "+35699000001", text: "x" }).catch((e) => e);
    expect(e1).toBeInstanceOf(ChannelError);
    expect(e1.message).toBe("The modem answered ERROR to the message");
    expect(e1.permanent).toBe(false);
    sim.script.cmgs.push("+CMS ERROR: 1");
    const e2 = await ch.send({ key: "b", to: "+35699000002", text: "x" }).catch((e) => e);
    expect(e2.message).toBe("The modem could not send the SMS: the network says the number does not exist (+CMS ERROR 1)");
    expect(e2.permanent).toBe(true);
    sim.script.cmgs.push("+CMS ERROR: 42");
    const e3 = await ch.send({ key: "c", to: "+35699000003", text: "x" }).catch((e) => e);
    expect(e3.permanent).toBe(false);
    // The port is usable again after errors.
    await ch.send({ key: "d", to: "+35699000004", text: "after" });
    expect(sim.messages.map((m) => m.text)).toEqual(["after"]);
  });

  test("a retry after a failure midway sends only the missing parts", async () => {
    const { sim, ch } = await modem();
    const text = "Grazzi! ".repeat(40); // 320 septets: 3 parts
    sim.script.cmgs.push("ok", "+CMS ERROR: 41");
    const key = crypto.randomUUID();
    const err = await ch.send({ key, to: "+35699000005", text }).catch((e) => e);
    expect(err.message).toMatch(/\(after 1 of 3 parts\)$/);
    await ch.send({ key, to: "+35699000005", text });
    expect(sim.parts.map((p) => p.concat?.seq)).toEqual([1, 2, 3]);
    expect(sim.messages).toEqual([{ to: "+35699000005", text, parts: 3 }]);
  });

  test("sends queue on the port: parallel sends never interleave", async () => {
    const { sim, ch } = await modem();
    const texts = Array.from({ length: 5 }, (_, i) => `Message ${i} ${"ħ".repeat(80)}`);
    await Promise.all(texts.map((text, i) => ch.send({ key: `q${i}`, to: `+3569900001${i}`, text })));
    expect(sim.messages.map((m) => m.text).sort()).toEqual([...texts].sort());
  });

  test("check(): SIM ready and registered passes; a PIN or no network is said plainly", async () => {
    const { sim, ch } = await modem();
    await ch.check();
    sim.script.creg = 5; // roaming is fine
    await ch.check();
    sim.script.creg = 2;
    expect(await ch.check().catch((e) => e.message)).toBe("The modem is still looking for a network");
    sim.script.cpin = "SIM PIN";
    expect(await ch.check().catch((e) => e.message)).toBe("The modem's SIM card is not ready (SIM PIN): it may need its PIN");
  });

  test("unplugged during a send (socat gone: the pty reads EOF, a USB modem EIO) gives a clear error; a missing modem too", async () => {
    const { sim, ch } = await modem();
    sim.script.cmgs.push("hang");
    const sending = ch.send({ key: "u", to: "+35699000006", text: "x" }).catch((e) => e);
    await Bun.sleep(300);
    sim.unplug();
    const err = await sending;
    expect(err).toBeInstanceOf(ChannelError);
    expect(err.message).toMatch(/^The modem was unplugged/);
    await Bun.sleep(100);
    const gone = await ch.send({ key: "v", to: "+35699000007", text: "x" }).catch((e) => e);
    expect(gone.message).toMatch(/^The modem (is not connected|was unplugged)/);
  });

  test("a modem that never answers times out; a path outside the device root is refused", async () => {
    const { sim } = await modem("ttyUSB1");
    const ch = gsmModemChannel({ path: sim.path, devices, timeoutMs: 300, sendTimeoutMs: 300 });
    sim.script.cmgs.push("hang");
    const err = await ch.send({ key: "t", to: "+35699000008", text: "x" }).catch((e) => e);
    expect(err.message).toBe("The modem did not answer after the message in time");
    const outside = gsmModemChannel({ path: "/etc/passwd", devices });
    const refused = await outside.send({ key: "o", to: "+35699000009", text: "x" }).catch((e) => e);
    expect(refused.permanent).toBe(true);
    expect(refused.message).toMatch(/^Not sent: the modem's path must be a device under/);
  });
});

test("two channels on the same port (the settings test beside the sender) take turns", async () => {
  const sim = await startModemSimulator({ devRoot, dir, name: "ttyUSB3" });
  sims.push(sim);
  const a = gsmModemChannel({ path: sim.path, devices, timeoutMs: 1500 });
  const b = gsmModemChannel({ path: sim.path, devices, timeoutMs: 1500 });
  const long = "Il-ħwejjeġ lesti. ".repeat(30);
  await Promise.all([a.send({ key: "x1", to: "+35699000020", text: long }), b.check(), b.send({ key: "x2", to: "+35699000021", text: long })]);
  expect(sim.messages.map((m) => m.text)).toEqual([long, long]);
});
