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
/** The probe's server: no STARTTLS, and it would take a login in clear. */
let plain: SmtpPeer;
let dir: string;
const FROM = "Ironbox Mosta <mosta@ironbox.example>";
const PASS = "p@ss:word";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ironbox-smtp-"));
  peer = await startSmtpPeer({ user: "shop", pass: PASS, tls: true });
  plain = await startSmtpPeer({ user: "shop", pass: PASS });
});
afterAll(async () => {
  await peer.stop();
  await plain.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Every way the password could cross the wire in clear: as typed, and inside AUTH PLAIN or AUTH LOGIN. */
function leaksPassword(bytes: Buffer): boolean {
  const text = bytes.toString("latin1");
  const forms = [PASS, Buffer.from(`\0shop\0${PASS}`).toString("base64"), Buffer.from(PASS).toString("base64")];
  return forms.some((f) => text.includes(f));
}

const email = (p = peer) => {
  const devices = deviceAccess({ sysRoot: join(dir, "sys"), devRoot: join(dir, "dev") });
  const c = createChannels(
    { smsGatewayUrl: null, modemPath: null, smtpUrl: p.url, smtpFrom: FROM },
    { devices, timeoutMs: 3000, smtpCa: p.ca ?? undefined },
  ).email;
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
    const bad = smtpChannel({ url: peer.url.replace("p%40ss", "nope"), from: FROM, timeoutMs: 3000, ca: peer.ca! });
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

  test("a server that offers no STARTTLS is refused before the password leaves the box, in plain words (the probe's attack)", async () => {
    const before = plain.mails.length;
    const err = await email(plain)
      .send({ key: crypto.randomUUID(), to: "a@example.com", text: "x", subject: "s" })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ChannelError);
    expect(err.message).toBe(
      "The mail server offers no encryption (STARTTLS), so the box did not send it the password: use the server's STARTTLS port (usually 587) or smtps:// (port 465)",
    );
    expect(err.permanent).toBe(true);
    const check = await email(plain)
      .check()
      .catch((e) => e);
    expect(check.message).toContain("offers no encryption");
    // Nothing was logged in, nothing delivered, and the password never crossed the wire.
    expect(plain.authAttempts).toBe(0);
    expect(plain.mails.length).toBe(before);
    const wire = plain.clientBytes();
    expect(wire.toString("latin1")).toContain("STARTTLS");
    expect(wire.toString("latin1")).not.toContain("AUTH");
    expect(leaksPassword(wire)).toBe(false);
  });

  test("control: over STARTTLS the box logs in and the mail arrives, with nothing of the password in clear", async () => {
    const key = crypto.randomUUID();
    await email().send({ key, to: "tls@example.com", text: "over TLS", subject: "s" });
    expect(peer.mails.some((m) => m.headers.get("message-id")?.includes(key))).toBe(true);
    expect(peer.authAttempts).toBeGreaterThan(0);
    const wire = peer.clientBytes();
    expect(wire.toString("latin1")).toContain("STARTTLS");
    expect(wire.toString("latin1")).not.toContain("AUTH PLAIN");
    expect(leaksPassword(wire)).toBe(false);
  });

  test("a certificate the box does not trust: refused before the login, said plainly", async () => {
    const attempts = peer.authAttempts;
    const untrusted = smtpChannel({ url: peer.url, from: FROM, timeoutMs: 3000 });
    const err = await untrusted.send({ key: "u", to: "a@example.com", text: "x" }).catch((e) => e);
    await untrusted.close?.();
    expect(err).toBeInstanceOf(ChannelError);
    expect(err.message).toStartWith("The mail server's encryption cannot be trusted");
    expect(err.permanent).toBe(true);
    expect(peer.authAttempts).toBe(attempts);
  });

  test("maskUrl hides the password", () => {
    expect(maskUrl("smtp://shop:p%40ss@mail.example.com:587")).toBe("smtp://shop:***@mail.example.com:587");
    expect(maskUrl("http://sms:secret@192.168.1.40:8080")).toBe("http://sms:***@192.168.1.40:8080/");
    expect(maskUrl("not a url with secret")).toBe("(hidden)");
    expect(maskUrl(null)).toBeNull();
  });
});
