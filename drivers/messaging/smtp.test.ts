import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deviceAccess } from "../devices";
import { ChannelError } from "./channel";
import { createChannels, maskUrl } from "./index";
import { smtpChannel } from "./smtp";
import { type SmtpPeer, startSmtpPeer } from "./testing/smtp-peer";

let peer: SmtpPeer;
let dir: string;
const FROM = "Ironbox Mosta <mosta@ironbox.example>";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ironbox-smtp-"));
  peer = await startSmtpPeer({ user: "shop", pass: "p@ss:word" });
});
afterAll(async () => {
  await peer.stop();
  rmSync(dir, { recursive: true, force: true });
});

const email = () => {
  const devices = deviceAccess({ sysRoot: join(dir, "sys"), devRoot: join(dir, "dev") });
  const c = createChannels({ smsGatewayUrl: null, modemPath: null, smtpUrl: peer.url, smtpFrom: FROM }, { devices, timeoutMs: 3000 }).email;
  if (!c) throw new Error("no channel");
  return c;
};

describe("e-mail over SMTP (nodemailer → smtp-server)", () => {
  test("the mail arrives with Maltese letters intact in subject and body, and a Message-ID from the key", async () => {
    const key = crypto.randomUUID();
    const subject = "Ċensu: il-libsa tiegħek lesta — Ħal Qormi, Żebbuġ, Ġgantija";
    const text = "Għażiż Ċensu,\nil-libsa tiegħek lesta. Ħallas €12.50.\nGrazzi!";
    const res = await email().send({ key, to: "censu@example.com", text, subject });
    expect(res.gatewayId).toBe(`<${key}@ironbox.example>`);
    const mail = peer.mails.find((m) => m.headers.get("message-id") === `<${key}@ironbox.example>`);
    expect(mail).toBeDefined();
    expect(mail?.subject).toBe(subject);
    expect(mail?.body).toBe(text);
    expect(mail?.to).toEqual(["censu@example.com"]);
    expect(mail?.from).toBe("mosta@ironbox.example");
    expect(mail?.headers.get("from")).toContain("<mosta@ironbox.example>");
  });

  test("a retry carries the same Message-ID", async () => {
    const key = crypto.randomUUID();
    await email().send({ key, to: "a@example.com", text: "x", subject: "s" });
    await email().send({ key, to: "a@example.com", text: "x", subject: "s" });
    const ids = peer.mails.filter((m) => m.headers.get("message-id")?.includes(key)).map((m) => m.headers.get("message-id"));
    expect(ids).toEqual([`<${key}@ironbox.example>`, `<${key}@ironbox.example>`]);
  });

  test("a line break in the subject cannot add a header", async () => {
    const key = crypto.randomUUID();
    await email().send({ key, to: "b@example.com", text: "x", subject: "Ready\r\nBcc: victim@example.com\nX-Evil: 1" });
    const mail = peer.mails.find((m) => m.headers.get("message-id")?.includes(key));
    expect(mail?.headers.has("bcc")).toBe(false);
    expect(mail?.headers.has("x-evil")).toBe(false);
    expect(mail?.to).toEqual(["b@example.com"]);
    expect(mail?.subject).toBe("Ready Bcc: victim@example.com X-Evil: 1");
  });

  test("check() verifies the login; a wrong password is permanent, in plain words", async () => {
    await email().check();
    const bad = smtpChannel({ url: peer.url.replace("p%40ss", "nope"), from: FROM, timeoutMs: 3000 });
    const err = await bad.check().catch((e) => e);
    expect(err).toBeInstanceOf(ChannelError);
    expect(err.message).toBe("The mail server refused the user name or password");
    expect(err.permanent).toBe(true);
    await bad.close?.();
  });

  test("a refused recipient is permanent; a server that is down is transient", async () => {
    const err = await email()
      .send({ key: "r", to: "nobody@refused.example", text: "x", subject: "s" })
      .catch((e) => e);
    expect(err.permanent).toBe(true);
    expect(err.message).toMatch(/^The mail server refused the message: .*550/);
    const down = smtpChannel({ url: "smtp://u:secretpw@127.0.0.1:1", from: FROM, timeoutMs: 1000 });
    const e2 = await down.send({ key: "d", to: "a@example.com", text: "x" }).catch((e) => e);
    expect(e2.permanent).toBe(false);
    expect(e2.message).toMatch(/^Cannot reach the mail server/);
    expect(e2.message).not.toContain("secretpw");
  });

  test("maskUrl hides the password", () => {
    expect(maskUrl("smtp://shop:p%40ss@mail.example.com:587")).toBe("smtp://shop:***@mail.example.com:587");
    expect(maskUrl("http://sms:secret@192.168.1.40:8080")).toBe("http://sms:***@192.168.1.40:8080/");
    expect(maskUrl("not a url with secret")).toBe("(hidden)");
    expect(maskUrl(null)).toBeNull();
  });
});
