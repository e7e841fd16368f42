import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deviceAccess } from "../devices";
import { androidGatewayChannel } from "./androidGateway";
import { ChannelError } from "./channel";
import { createChannels } from "./index";
import { type GatewayStandIn, startGatewayStandIn } from "./testing/android-gateway-stand-in";

// The stand-in marks a message Sent after sentAfterMs; a test that read "pending" within 30 ms
// of sending failed on a loaded machine (issue 33: no wall-clock bounds in functional tests),
// so its phone never sends by itself here and the test says when it has.
const HOUR = 3_600_000;
let dir: string;
let gw: GatewayStandIn;
// A test device root: the stand-in on loopback counts as the shop's network.
let devices: ReturnType<typeof deviceAccess>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ironbox-gw-"));
  devices = deviceAccess({ sysRoot: join(dir, "sys"), devRoot: join(dir, "dev") });
  gw = startGatewayStandIn({ user: "sms", pass: "s3cret:pw", log: join(dir, "gw.log"), sentAfterMs: HOUR });
});
afterAll(async () => {
  await gw.stop();
  rmSync(dir, { recursive: true, force: true });
});

const sms = () => {
  const c = createChannels({ smsGatewayUrl: gw.url, modemPath: null, smtpUrl: null, smtpFrom: null }, { devices, timeoutMs: 2000 }).sms;
  if (!c) throw new Error("no channel");
  return c;
};

describe("SMS via SMS Gateway for Android (local server)", () => {
  test("sends the text and the outbox key; the phone logs it once; lookup follows its state", async () => {
    const key = crypto.randomUUID();
    const text = "Ċensu, il-libsa tiegħek lesta. Grazzi! €12.50";
    const res = await sms().send({ key, to: "+35699123456", text });
    expect(res.gatewayId).toBe(key);
    const got = gw.received.filter((m) => m.id === key);
    expect(got).toEqual([expect.objectContaining({ id: key, to: "+35699123456", text })]);
    const line = readFileSync(join(dir, "gw.log"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .find((l) => l.id === key);
    expect(line).toMatchObject({ id: key, to: "+35699123456", text });

    expect(await sms().lookup?.(key)).toBe("pending");
    gw.setState(key, "Sent");
    expect(await sms().lookup?.(key)).toBe("sent");
    gw.setState(key, "Failed");
    expect(await sms().lookup?.(key)).toBe("failed");
    expect(await sms().lookup?.(crypto.randomUUID())).toBe("unknown");
  });

  test("a retried send with the same key is taken once (the gateway answers 409): no second SMS", async () => {
    const key = crypto.randomUUID();
    const before = gw.duplicates();
    await sms().send({ key, to: "+35699000001", text: "once" });
    const again = await sms().send({ key, to: "+35699000001", text: "once" });
    expect(again.gatewayId).toBe(key);
    expect(gw.received.filter((m) => m.id === key)).toHaveLength(1);
    expect(gw.duplicates()).toBe(before + 1);
  });

  test("check() passes with the right password; a wrong one is a permanent error in plain words", async () => {
    await sms().check();
    const bad = androidGatewayChannel({ url: gw.url.replace("s3cret", "wrong"), timeoutMs: 2000 });
    const err = await bad.send({ key: crypto.randomUUID(), to: "+35699000002", text: "x" }).catch((e) => e);
    expect(err).toBeInstanceOf(ChannelError);
    expect(err.message).toBe("The phone refused the user name or password");
    expect(err.permanent).toBe(true);
    expect(await bad.check().catch((e) => e.message)).toBe("The phone refused the user name or password");
  });

  test("a phone that is off is a transient error that says so, without the password", async () => {
    const off = startGatewayStandIn({ user: "u", pass: "topsecret" });
    const url = off.url;
    await off.stop();
    const err = await androidGatewayChannel({ url, timeoutMs: 2000 })
      .send({ key: "k", to: "+35699000003", text: "x" })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ChannelError);
    expect(err.permanent).toBe(false);
    expect(err.message).toMatch(/^Cannot reach the phone at 127\.0\.0\.1:\d+/);
    expect(err.message).not.toContain("topsecret");
  });

  test("a phone that is too slow times out (transient)", async () => {
    const slow = startGatewayStandIn({ user: "u", pass: "p", latencyMs: 1500 });
    try {
      const err = await androidGatewayChannel({ url: slow.url, timeoutMs: 300 })
        .send({ key: "k", to: "+35699000004", text: "x" })
        .catch((e) => e);
      expect(err.message).toMatch(/did not answer within/);
      expect(err.permanent).toBe(false);
    } finally {
      await slow.stop();
    }
  });

  test("an answer lost after the phone took the message: the retry is recognised, one SMS", async () => {
    let lose = true;
    const flaky = startGatewayStandIn({ user: "u", pass: "p", lostReplyRate: 1, random: () => (lose ? 0 : 1), sentAfterMs: HOUR });
    try {
      const ch = androidGatewayChannel({ url: flaky.url, timeoutMs: 2000 });
      const key = crypto.randomUUID();
      const first = await ch.send({ key, to: "+35699000005", text: "x" }).catch((e) => e);
      expect(first).toBeInstanceOf(ChannelError);
      expect(first.permanent).toBe(false);
      lose = false;
      expect(await ch.lookup?.(key)).toBe("pending");
      expect((await ch.send({ key, to: "+35699000005", text: "x" })).gatewayId).toBe(key);
      expect(flaky.received).toHaveLength(1);
    } finally {
      await flaky.stop();
    }
  });

  test("a request the phone refuses (empty text) is permanent, with the phone's reason", async () => {
    const err = await sms()
      .send({ key: crypto.randomUUID(), to: "+35699000006", text: "" })
      .catch((e) => e);
    expect(err.permanent).toBe(true);
    expect(err.message).toBe("The phone refused the message: 400 Text message is empty");
  });

  test("a phone outside the shop's network is refused before connecting (real device root)", async () => {
    const real = deviceAccess({ sysRoot: "/sys", devRoot: "/dev" });
    const ch = createChannels({ smsGatewayUrl: gw.url, modemPath: null, smtpUrl: null, smtpFrom: null }, { devices: real }).sms;
    const err = await ch?.send({ key: "k", to: "+35699000007", text: "x" }).catch((e) => e);
    expect(err.message).toBe("The phone must be on the shop's network (a private LAN address)");
    expect(gw.received.some((m) => m.to === "+35699000007")).toBe(false);
  });
});
