import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { and, eq, inArray, ne, type SQL } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { agents, customers, messageBatches, outgoingMessages, tickets } from "../../../db/schema";
import { type GatewayStandIn, startGatewayStandIn } from "../../../drivers/messaging/testing/android-gateway-stand-in";
import { startSmtpPeer } from "../../../drivers/messaging/testing/smtp-peer";
import type { BoxEvent } from "../events/model";
import { testBox, type TestBox } from "../../test/harness";
import { stateSaying } from "../../domain/messageTemplate";
import { smsParts } from "../../domain/sms";
import { backoffMs, DEFAULT_POLICY } from "./service";
import { STATUS_REPEAT_MS } from "./throttle";

// The outbox against real peers: a stand-in of the Android gateway's HTTP API (one healthy, one
// that always answers 503, one that loses its answers) and a local SMTP server. The sender is
// paused and stepped with tick(), the clock moved by hand.

const API = "/api/v1";
let box: TestBox;
let good: GatewayStandIn;
let busy: GatewayStandIn;
let lossy: GatewayStandIn;
const mails: { to: string; body: string }[] = [];
let smtp: SMTPServer;
let smtpPort = 0;
let admin: string; // birkirkara admin (5555)
let employee: string; // birkirkara employee (6666)
let mostaManager: string;
let hqAdmin: string;
const ids = { birkirkara: 0, mosta: 0 };
const events: BoxEvent[] = [];

const db = () => box.database.db;
const rowsOf = (where: SQL | undefined) => db().select().from(outgoingMessages).where(where);

async function setGateway(url: string | null, extra: Record<string, string> = {}) {
  const r = await box.call("PUT", `${API}/messaging/settings`, {
    token: hqAdmin,
    body: {
      sms_gateway_url: url ?? "",
      modem_path: "",
      smtp_url: `smtp://127.0.0.1:${smtpPort}`,
      smtp_from: "Ironbox Birkirkara <birkirkara@ironbox.mt>",
      ...extra,
    },
  });
  expect(r.status).toBe(200);
  return r.json.data;
}
async function ticketOf(shop: keyof typeof ids) {
  const t = await db().query.tickets.findFirst({ where: and(eq(tickets.agent_id, ids[shop]), ne(tickets.state, "CREATED")) });
  return t!;
}
async function customerOf(shop: keyof typeof ids, n = 1) {
  return db().select().from(customers).where(eq(customers.agent_id, ids[shop])).limit(n);
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on("data", (c) => chunks.push(c));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), body: Buffer.concat(chunks).toString("utf8") });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", () => r()));
  smtpPort = (smtp.server.address() as { port: number }).port;
  good = startGatewayStandIn({ user: "sms", pass: "s3cret", sentAfterMs: 5 });
  busy = startGatewayStandIn({ user: "sms", pass: "s3cret", failRate: 1 });
  lossy = startGatewayStandIn({ user: "sms", pass: "s3cret", lostReplyRate: 1 });
  box = await testBox({ demo: true });
  box.messaging.sender.pause();
  box.bus.subscribe((e) => events.push(e));
  for (const shop of ["birkirkara", "mosta"] as const) ids[shop] = (await db().query.agents.findFirst({ where: eq(agents.user_name, shop) }))!.id;
});
afterAll(async () => {
  box?.close();
  await Promise.all([good?.stop(), busy?.stop(), lossy?.stop()]);
  await new Promise<void>((r) => smtp.close(() => r()));
});
/** Fresh sessions: the back-off test moves the clock past an employee session's idle limit. */
async function login() {
  const shopToken = await box.agentToken("birkirkara", "shop-demo-2026");
  admin = await box.employeeToken("5555", shopToken);
  employee = await box.employeeToken("6666", shopToken);
  mostaManager = await box.employeeToken("7777", await box.agentToken("mosta", "shop-demo-2026"));
  hqAdmin = await box.employeeToken("1111");
}
beforeEach(async () => {
  // Each test starts a minute after the last: its status messages and channel tests are not repeats of another test's.
  box.clock.advance(STATUS_REPEAT_MS);
  await login();
  await setGateway(good.url);
});

describe("status messages", () => {
  test("any staff queues a ticket's status message from its state's template; the sender sends it once, after the request", async () => {
    const t = await ticketOf("birkirkara");
    const c = (await db().query.customers.findFirst({ where: eq(customers.id, t.customer_id) }))!;
    await db().update(customers).set({ mobile: "7912 3456", no_messages: true }).where(eq(customers.id, c.id));
    events.length = 0;
    const r = await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee });
    expect(r.status).toBe(200);
    const [row] = r.json.data;
    // A customer who asked for no messages still gets the status message of their own ticket (consent covers bulk sends).
    expect(row).toMatchObject({ status: "queued", channel: "sms", recipient: "79123456", ticket_id: t.id, customer_id: c.id, attempts: 0 });
    expect(row.text).toContain(c.full_name);
    expect(row.text).toContain(String(t.id));
    expect(good.received.filter((m) => m.to === "79123456")).toHaveLength(0);
    await box.messaging.sender.tick();
    const after = await box.call("GET", `${API}/messages?ticket_id=${t.id}`, { token: employee });
    expect(after.json.data[0]).toMatchObject({ id: row.id, status: "sent", attempts: 1, last_error: null });
    const key = (await db().query.outgoingMessages.findFirst({ where: eq(outgoingMessages.id, row.id) }))!.key;
    expect(good.received.filter((m) => m.id === key)).toHaveLength(1);
    expect(events.filter((e) => e.type === "message" && e.id === row.id).map((e) => (e as { status: string }).status)).toEqual(["queued", "sending", "sent"]);
    await db().update(customers).set({ no_messages: false }).where(eq(customers.id, c.id));
  });

  test("running on its own, the sender sends a queued message without being stepped", async () => {
    const t = await ticketOf("birkirkara");
    await db().update(customers).set({ mobile: "79000077" }).where(eq(customers.id, t.customer_id));
    await box.messaging.sender.start();
    try {
      const [row] = (await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee })).json.data;
      expect(row.status).toBe("queued");
      const state = async () => (await db().query.outgoingMessages.findFirst({ where: eq(outgoingMessages.id, row.id) }))!.status;
      for (let i = 0; i < 100 && (await state()) !== "sent"; i++) await Bun.sleep(20);
      expect(await state()).toBe("sent");
    } finally {
      box.messaging.sender.pause();
    }
  });

  test("without a mobile the message goes by e-mail (SMTP), Maltese letters intact; no address answers 422", async () => {
    const t = await ticketOf("birkirkara");
    await db()
      .update(customers)
      .set({ mobile: "", email_address: "ċensu@example.mt".replace("ċ", "c"), full_name: "Ċensu Żammit" })
      .where(eq(customers.id, t.customer_id));
    const r = await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee });
    expect(r.json.data[0]).toMatchObject({ channel: "email", recipient: "censu@example.mt" });
    await box.messaging.sender.tick();
    expect((await box.call("GET", `${API}/messages?ticket_id=${t.id}`, { token: employee })).json.data[0].status).toBe("sent");
    const mail = mails.find((m) => m.to === "censu@example.mt")!;
    expect(mail).toBeDefined();
    // The body travels quoted-printable or base64: decode whichever nodemailer chose.
    const decoded = mail.body.includes("base64")
      ? Buffer.from(
          mail.body
            .split(/\r?\n\r?\n/)
            .slice(1)
            .join("")
            .replace(/\s/g, ""),
          "base64",
        ).toString("utf8")
      : mail.body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => `%${h}`);
    expect(decodeURIComponent(decoded.replace(/%(?![0-9A-F]{2})/g, "%25"))).toContain("Ċensu Żammit");
    await db().update(customers).set({ email_address: "" }).where(eq(customers.id, t.customer_id));
    const none = await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee });
    expect(none.status).toBe(422);
    expect(none.json.message).toContain("no mobile or e-mail");
  });

  test("another shop's ticket answers 404 and queues nothing", async () => {
    const t = await ticketOf("mosta");
    const before = (await rowsOf(eq(outgoingMessages.ticket_id, t.id))).length;
    expect((await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee })).status).toBe(404);
    expect((await box.call("GET", `${API}/messages?ticket_id=${t.id}`, { token: employee })).status).toBe(404);
    expect((await rowsOf(eq(outgoingMessages.ticket_id, t.id))).length).toBe(before);
    // HQ sees every shop's.
    expect((await box.call("GET", `${API}/messages?ticket_id=${t.id}`, { token: hqAdmin })).status).toBe(200);
  });
});

describe("status message preview (issue 25: the ticket view shows the text and asks first)", () => {
  test("the preview is exactly the text the send then queues, with its address; it queues nothing; another shop's ticket answers 404", async () => {
    const t = await ticketOf("birkirkara");
    await db().update(customers).set({ mobile: "7900 0031" }).where(eq(customers.id, t.customer_id));
    const count = async () => (await rowsOf(eq(outgoingMessages.ticket_id, t.id))).length;
    const before = await count();
    const p = await box.call("GET", `${API}/messages/${t.id}/status/preview`, { token: employee });
    expect(p.status).toBe(200);
    expect(p.json.data).toMatchObject({ ticket_id: t.id, channel: "sms", recipient: "79000031" });
    const { encoding, parts, length } = smsParts(p.json.data.text);
    expect(p.json.data.sms).toEqual({ encoding, parts, length });
    expect(p.json.data.text).toContain(stateSaying(t.state));
    expect(await count()).toBe(before);
    // The attack: a Mosta manager asks for a Birkirkara ticket's message (its customer's name and number).
    const other = await box.call("GET", `${API}/messages/${t.id}/status/preview`, { token: mostaManager });
    expect(other.status).toBe(404);
    const sent = await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee });
    expect(sent.status).toBe(200);
    expect(sent.json.data[0].text).toBe(p.json.data.text);
  });
});

describe("throttles", () => {
  test("a ticket's status message again within a minute answers 429, saying how long to wait, and queues nothing; a minute later it goes", async () => {
    const t = await ticketOf("birkirkara");
    await db().update(customers).set({ mobile: "79000021" }).where(eq(customers.id, t.customer_id));
    const first = await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee });
    expect(first.status).toBe(200);
    const count = async () => (await rowsOf(eq(outgoingMessages.ticket_id, t.id))).length;
    const queued = await count();
    // The attack: the same ticket's message over and over (a double tap or a script); two at once as well.
    box.clock.advance(20_000);
    const again = await Promise.all([0, 1, 2].map(() => box.call("POST", `${API}/messages/${t.id}/status`, { token: admin })));
    for (const r of again) {
      expect(r.status).toBe(429);
      expect(r.json.message).toBe(`A status message for ticket ${t.id} was queued 20 s ago: wait 40 s before sending another`);
    }
    expect(await count()).toBe(queued);
    // Control: another ticket is not held back, and the same ticket goes once the minute is over.
    const other = (await db().query.tickets.findFirst({
      where: and(eq(tickets.agent_id, ids.birkirkara), ne(tickets.id, t.id), ne(tickets.state, "CREATED")),
    }))!;
    await db().update(customers).set({ mobile: "79000022" }).where(eq(customers.id, other.customer_id));
    expect((await box.call("POST", `${API}/messages/${other.id}/status`, { token: employee })).status).toBe(200);
    box.clock.advance(40_000);
    expect((await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee })).status).toBe(200);
    expect(await count()).toBe(queued + 1);
    await box.messaging.sender.tick();
  });

  test("a channel's test message more than three times a minute answers 429; other channels and the next minute are free", async () => {
    const test = (channel: string, to: string) => box.call("POST", `${API}/messaging/settings/test`, { token: admin, body: { channel, to } });
    for (let i = 0; i < 3; i++) {
      const r = await test("gateway", "79000031");
      expect(r.status).toBe(200);
      expect(r.json.data.ok).toBe(true);
      box.clock.advance(5_000);
    }
    const sentBefore = good.received.filter((m) => m.to === "79000031").length;
    const fourth = await test("gateway", "79000031");
    expect(fourth.status).toBe(429);
    expect(fourth.json.message).toBe("The SMS gateway (Android phone) has been tested 3 times in the last minute: wait 45 s before testing it again");
    expect(good.received.filter((m) => m.to === "79000031").length).toBe(sentBefore);
    // Control: e-mail is another channel; after the minute the phone can be tested again.
    expect((await test("smtp", "owner@example.com")).json.data.ok).toBe(true);
    box.clock.advance(45_000);
    expect((await test("gateway", "79000031")).json.data.ok).toBe(true);
  });
});

describe("bulk sends", () => {
  test("admin only: an employee and a manager get 403", async () => {
    const [c] = await customerOf("birkirkara");
    for (const token of [employee, mostaManager]) {
      const r = await box.call("POST", `${API}/customers/sendMessages?all=false`, { token, body: { customer_ids: [c!.id], text: "Hello" } });
      expect(r.status).toBe(403);
    }
  });

  test("bad input: empty text, 5,000 ids, none chosen, unknown and other shops' ids (named; nothing queued)", async () => {
    const [c] = await customerOf("birkirkara");
    const [other] = await customerOf("mosta");
    const count = async () => (await db().select().from(outgoingMessages)).length;
    const before = await count();
    const send = (body: unknown, all = false) => box.call("POST", `${API}/customers/sendMessages?all=${all}`, { token: admin, body });
    expect((await send({ customer_ids: [c!.id], text: "   " })).status).toBe(422);
    const many = await send({ customer_ids: Array.from({ length: 5000 }, (_, i) => i + 1), text: "Hi" });
    expect(many.status).toBe(422);
    expect(many.json.message).toContain("1000");
    expect((await send({ customer_ids: [], text: "Hi" })).status).toBe(422);
    const unknown = await send({ customer_ids: [c!.id, 99_999_999], text: "Hi" });
    expect(unknown.status).toBe(422);
    expect(unknown.json.message).toContain("99999999");
    const foreign = await send({ customer_ids: [c!.id, other!.id], text: "Hi" });
    expect(foreign.status).toBe(422);
    expect(foreign.json.message).toContain(String(other!.id));
    expect(await count()).toBe(before);
  });

  test("consent and addresses: skipped and counted; the rest queued and sent exactly once under concurrent sender ticks", async () => {
    const list = await customerOf("birkirkara", 40);
    const [quiet, noAddress, ...rest] = list;
    // The consent flag is read and set through the customer API.
    const put = await box.call("PUT", `${API}/customers/${quiet!.id}`, { token: employee, body: { no_messages: true } });
    expect(put.status).toBe(200);
    expect((await box.call("GET", `${API}/customers/${quiet!.id}`, { token: employee })).json.data.no_messages).toBe(true);
    await db().update(customers).set({ mobile: "", email_address: "" }).where(eq(customers.id, noAddress!.id));
    for (const c of rest)
      await db()
        .update(customers)
        .set({ mobile: `79${String(c.id).padStart(6, "0")}` })
        .where(eq(customers.id, c.id));
    const r = await box.call("POST", `${API}/customers/sendMessages?all=false`, {
      token: admin,
      body: { customer_ids: list.map((c) => c.id), text: "Closed on Monday – Ħadd it-Tnejn" },
    });
    expect(r.status).toBe(200);
    expect(r.json.data).toMatchObject({ queued: rest.length, skipped: { no_messages: 1, no_address: 1 } });
    const batch = r.json.data.batch_id;
    expect((await box.call("GET", `${API}/messages/batches/${batch}`, { token: admin })).json.data).toMatchObject({
      queued: rest.length,
      sent: 0,
      total: rest.length,
    });
    const receivedBefore = good.received.length;
    await Promise.all([box.messaging.sender.tick(), box.messaging.sender.tick(), box.messaging.sender.tick(), box.messaging.sender.tick()]);
    const counts = (await box.call("GET", `${API}/messages/batches/${batch}`, { token: admin })).json.data;
    expect(counts).toMatchObject({ queued: 0, sending: 0, sent: rest.length, failed: 0, unknown: 0 });
    const keys = (await rowsOf(eq(outgoingMessages.batch_id, batch))).map((x) => x.key);
    const got = good.received.slice(receivedBefore);
    expect(got).toHaveLength(rest.length);
    expect(new Set(got.map((m) => m.id))).toEqual(new Set(keys));
    expect(got[0]!.text).toBe("Closed on Monday – Ħadd it-Tnejn");
    expect(good.duplicates()).toBe(0);
    // Another shop cannot follow this batch.
    expect((await box.call("GET", `${API}/messages/batches/${batch}`, { token: mostaManager })).status).toBe(404);
  });

  test('the count before "Are you sure?": how many get it and how many are skipped for consent; nothing queued; admin only', async () => {
    const list = await customerOf("birkirkara", 3);
    await db().update(customers).set({ mobile: "79000041", no_messages: false }).where(eq(customers.id, list[0]!.id));
    await db().update(customers).set({ mobile: "79000042", no_messages: true }).where(eq(customers.id, list[1]!.id));
    await db().update(customers).set({ mobile: "", email_address: "", no_messages: false }).where(eq(customers.id, list[2]!.id));
    const body = { customer_ids: list.map((c) => c.id) };
    const batches = async () => (await db().select().from(messageBatches)).length;
    const before = await batches();
    expect((await box.call("POST", `${API}/customers/sendMessages/count`, { token: employee, body })).status).toBe(403);
    const r = await box.call("POST", `${API}/customers/sendMessages/count`, { token: admin, body });
    expect(r.status).toBe(200);
    expect(r.json.data).toEqual({ customers: 3, will_send: 1, skipped: { no_messages: 1, no_address: 1 } });
    expect(await batches()).toBe(before);
    // The attack: another shop's customer in the list is named, as the send names it.
    const mosta = await customerOf("mosta", 1);
    const bad = await box.call("POST", `${API}/customers/sendMessages/count`, { token: admin, body: { customer_ids: [list[0]!.id, mosta[0]!.id] } });
    expect(bad.status).toBe(422);
    // And the send does what the count said.
    const sent = await box.call("POST", `${API}/customers/sendMessages`, { token: admin, body: { ...body, text: "Closed on Monday" } });
    expect(sent.json.data).toMatchObject({ queued: 1, skipped: { no_messages: 1, no_address: 1 } });
  });

  test("all=true reaches every customer of the caller's shop only", async () => {
    const mine = (await db().select({ id: customers.id }).from(customers).where(eq(customers.agent_id, ids.birkirkara))).length;
    const r = await box.call("POST", `${API}/customers/sendMessages?all=true`, { token: admin, body: { customer_ids: [], text: "Hello all" } });
    expect(r.status).toBe(200);
    const { queued, skipped } = r.json.data;
    expect(queued + skipped.no_messages + skipped.no_address).toBe(mine);
    const rows = await rowsOf(eq(outgoingMessages.batch_id, r.json.data.batch_id));
    const owners = await db()
      .select({ agent_id: customers.agent_id })
      .from(customers)
      .where(
        inArray(
          customers.id,
          rows.map((x) => x.customer_id!),
        ),
      );
    expect(owners.every((o) => o.agent_id === ids.birkirkara)).toBe(true);
    await box.messaging.sender.tick();
  });

  test("GET /messages: another shop's customer or batch answers 404; without a filter only the caller's shop's rows", async () => {
    const [c] = await customerOf("birkirkara");
    await db().update(customers).set({ mobile: "79555001", no_messages: false }).where(eq(customers.id, c!.id));
    const r = await box.call("POST", `${API}/customers/sendMessages?all=false`, { token: admin, body: { customer_ids: [c!.id], text: "Scoped" } });
    expect(r.json.data.queued).toBe(1);
    const batch = r.json.data.batch_id;
    for (const q of [`customer_id=${c!.id}`, `batch_id=${batch}`]) {
      expect((await box.call("GET", `${API}/messages?${q}`, { token: admin })).json.data.length).toBeGreaterThan(0);
      expect((await box.call("GET", `${API}/messages?${q}`, { token: mostaManager })).status).toBe(404);
    }
    type Listed = { agent_id: number; batch_id: number | null };
    const list = async (token: string) => (await box.call("GET", `${API}/messages?limit=500`, { token })).json.data as Listed[];
    const mosta = await list(mostaManager);
    expect(mosta.every((m) => m.agent_id === ids.mosta)).toBe(true);
    expect(mosta.some((m) => m.batch_id === batch)).toBe(false);
    expect((await list(hqAdmin)).some((m) => m.batch_id === batch)).toBe(true);
    expect(
      (await box.call("POST", `${API}/messages/outbox/${(await rowsOf(eq(outgoingMessages.batch_id, batch)))[0]!.id}/retry`, { token: mostaManager })).status,
    ).toBe(404);
    await box.messaging.sender.tick();
  });
});

describe("retries and crashes", () => {
  test("a transient failure is retried with exponential back-off up to the limit, then failed; a person retries it", async () => {
    await setGateway(busy.url);
    const t = await ticketOf("birkirkara");
    await db().update(customers).set({ mobile: "79000001" }).where(eq(customers.id, t.customer_id));
    const [row] = (await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee })).json.data;
    const get = async () => (await db().query.outgoingMessages.findFirst({ where: eq(outgoingMessages.id, row.id) }))!;
    for (let attempt = 1; attempt < DEFAULT_POLICY.maxAttempts; attempt++) {
      await box.messaging.sender.tick();
      const r = await get();
      expect(r).toMatchObject({ status: "queued", attempts: attempt });
      expect(r.last_error).toContain("could not take");
      const wait = backoffMs(attempt, DEFAULT_POLICY);
      expect(Date.parse(r.next_attempt_at!) - box.clock.now().getTime()).toBe(wait);
      // Not before its time...
      box.clock.advance(wait - 1000);
      await box.messaging.sender.tick();
      expect((await get()).attempts).toBe(attempt);
      box.clock.advance(1000);
    }
    await box.messaging.sender.tick();
    const last = await get();
    expect(last).toMatchObject({ status: "failed", attempts: DEFAULT_POLICY.maxAttempts });
    expect(last.last_error).toContain("gave up after 6 attempts");
    expect(busy.received).toHaveLength(0);
    // The person's retry, through a working gateway now.
    await login();
    await setGateway(good.url);
    const retry = await box.call("POST", `${API}/messages/outbox/${row.id}/retry`, { token: employee });
    expect(retry.status).toBe(200);
    expect(retry.json.data.status).toBe("queued");
    expect((await box.call("POST", `${API}/messages/outbox/${row.id}/retry`, { token: employee })).status).toBe(409);
    await box.messaging.sender.tick();
    expect((await get()).status).toBe("sent");
    expect((await box.call("POST", `${API}/messages/outbox/${row.id}/retry`, { token: mostaManager })).status).toBe(404);
  });

  test("a permanent failure (the phone refuses the password) is failed at once", async () => {
    await setGateway(good.url.replace("s3cret", "wrong"));
    const t = await ticketOf("birkirkara");
    const [row] = (await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee })).json.data;
    await box.messaging.sender.tick();
    const r = (await db().query.outgoingMessages.findFirst({ where: eq(outgoingMessages.id, row.id) }))!;
    expect(r).toMatchObject({ status: "failed", attempts: 1 });
    expect(r.last_error).toContain("refused the user name or password");
  });

  test("a lost answer: the retry carries the same key, the gateway refuses the copy, the row is sent once", async () => {
    await setGateway(lossy.url);
    const t = await ticketOf("birkirkara");
    const [row] = (await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee })).json.data;
    await box.messaging.sender.tick();
    const r1 = (await db().query.outgoingMessages.findFirst({ where: eq(outgoingMessages.id, row.id) }))!;
    expect(r1.status).toBe("queued");
    box.clock.advance(backoffMs(1, DEFAULT_POLICY));
    await box.messaging.sender.tick();
    const r2 = (await db().query.outgoingMessages.findFirst({ where: eq(outgoingMessages.id, row.id) }))!;
    expect(r2.status).toBe("sent");
    expect(lossy.received.filter((m) => m.id === r2.key)).toHaveLength(1);
    expect(lossy.duplicates()).toBe(1);
  });

  test("rows left `sending` after a crash: the gateway is asked (sent, never got, failed, still pending); no lookup -> unknown", async () => {
    const t = await ticketOf("birkirkara");
    await db().update(customers).set({ mobile: "79000002", email_address: "late@example.mt" }).where(eq(customers.id, t.customer_id));
    // A minute apart: the same ticket's status message is not taken twice within one.
    const queue = async () => {
      box.clock.advance(STATUS_REPEAT_MS);
      return (await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee })).json.data[0].id as number;
    };
    const ids4 = [await queue(), await queue(), await queue(), await queue()];
    // What a box killed mid-send leaves: rows claimed, some of them already handed to the phone.
    await db()
      .update(outgoingMessages)
      .set({ status: "sending", claimed_at: box.clock.now().toISOString(), attempts: 1 })
      .where(inArray(outgoingMessages.id, ids4));
    const rows = await rowsOf(inArray(outgoingMessages.id, ids4));
    const keyOf = (id: number) => rows.find((r) => r.id === id)!.key;
    const hand = (key: string) =>
      fetch(`http://127.0.0.1:${good.port}/message`, {
        method: "POST",
        headers: { authorization: `Basic ${btoa("sms:s3cret")}`, "content-type": "application/json" },
        body: JSON.stringify({ id: key, message: "x", phoneNumbers: ["79000002"] }),
      });
    const [sentId, neverId, failedId, pendingId] = ids4 as [number, number, number, number];
    await hand(keyOf(sentId));
    await hand(keyOf(failedId));
    await hand(keyOf(pendingId));
    // The stand-in marks them Sent 5 ms after it got them: wait for that before setting states by hand.
    const handed = [sentId, failedId, pendingId].map(keyOf);
    const settled = () => handed.every((k) => good.received.some((m) => m.id === k && m.state !== "Pending"));
    for (let i = 0; i < 200 && !settled(); i++) await Bun.sleep(5);
    expect(settled()).toBe(true);
    good.setState(keyOf(failedId), "Failed");
    good.setState(keyOf(pendingId), "Pending");
    const tally = await box.messaging.sender.recover(0);
    expect(tally).toMatchObject({ sent: 1, requeued: 1, failed: 1, pending: 1, unknown: 0 });
    const state = async (id: number) => (await db().query.outgoingMessages.findFirst({ where: eq(outgoingMessages.id, id) }))!.status;
    expect(await state(sentId)).toBe("sent");
    expect(await state(neverId)).toBe("queued");
    expect(await state(failedId)).toBe("failed");
    expect(await state(pendingId)).toBe("sending");
    await box.messaging.sender.tick();
    expect(await state(neverId)).toBe("sent");
    good.setState(keyOf(pendingId), "Sent");
    await box.messaging.sender.recover(0);
    expect(await state(pendingId)).toBe("sent");
    for (const id of ids4) expect(good.received.filter((m) => m.id === keyOf(id)).length).toBeLessThanOrEqual(1);
    expect(good.received.filter((m) => m.id === keyOf(neverId))).toHaveLength(1);

    // E-mail cannot be asked: a row left `sending` is flagged for a person, never sent again by itself.
    await db().update(customers).set({ mobile: "" }).where(eq(customers.id, t.customer_id));
    const mailId = await queue();
    await db()
      .update(outgoingMessages)
      .set({ status: "sending", claimed_at: box.clock.now().toISOString(), attempts: 1 })
      .where(eq(outgoingMessages.id, mailId));
    const mailsBefore = mails.length;
    expect(await box.messaging.sender.recover(0)).toMatchObject({ unknown: 1 });
    await box.messaging.sender.tick();
    expect(await state(mailId)).toBe("unknown");
    expect(mails.length).toBe(mailsBefore);
    const listed = (await box.call("GET", `${API}/messages?ticket_id=${t.id}`, { token: employee })).json.data.find((r: { id: number }) => r.id === mailId);
    expect(listed.last_error).toContain("may or may not have arrived");
    expect((await box.call("POST", `${API}/messages/outbox/${mailId}/retry`, { token: employee })).status).toBe(200);
    await box.messaging.sender.tick();
    expect(await state(mailId)).toBe("sent");
    expect(mails.length).toBe(mailsBefore + 1);
  });
});

describe("templates", () => {
  test("unknown placeholders are refused; a saved template is what the status message says; HQ staff only", async () => {
    const list = (await box.call("GET", `${API}/messaging/templates`, { token: employee })).json.data;
    const t = await ticketOf("birkirkara");
    const state = list.find((x: { state: string }) => x.state === t.state);
    expect(state.is_default).toBe(true);
    const bad = await box.call("PUT", `${API}/messaging/templates/${state.state_id}`, { token: hqAdmin, body: { text: "Hi {custmer_name}" } });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toContain("{custmer_name}");
    expect((await box.call("PUT", `${API}/messaging/templates/${state.state_id}`, { token: employee, body: { text: "Hi {customer_name}" } })).status).toBe(403);
    // The attack: a shop's admin rewrites the message every shop sends (with a link of their choosing).
    const hijack = await box.call("PUT", `${API}/messaging/templates/${state.state_id}`, {
      token: admin,
      body: { text: "Your items are ready: pay at http://evil.example/{ticket_id}" },
    });
    expect(hijack.status).toBe(403);
    expect(hijack.json.message).toBe("Only head-quarters staff may change data shared by every shop");
    const after = (await box.call("GET", `${API}/messaging/templates`, { token: admin })).json.data.find(
      (x: { state_id: number }) => x.state_id === state.state_id,
    );
    expect(after).toMatchObject({ is_default: true, text: state.text });
    // The control: HQ staff change it, and every shop's status message says the new text.
    const ok = await box.call("PUT", `${API}/messaging/templates/${state.state_id}`, {
      token: hqAdmin,
      body: { text: "Għażiż {customer_name}: {ticket_id} is {state}, due {amount_due}." },
    });
    expect(ok.status).toBe(200);
    await db().update(customers).set({ mobile: "79000003" }).where(eq(customers.id, t.customer_id));
    const c = (await db().query.customers.findFirst({ where: eq(customers.id, t.customer_id) }))!;
    const [row] = (await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee })).json.data;
    // The state as people say it, never its code.
    expect(row.text).toMatch(new RegExp(`^Għażiż ${c.full_name}: ${t.id} is ${stateSaying(t.state)}, due €`));
    expect(row.text).not.toContain(t.state);
    await box.messaging.sender.tick();
  });

  test("an empty value (a state with no name, no shop phone) never makes a broken sentence: the neutral text goes; what even that lacks is refused by name", async () => {
    const t = await ticketOf("birkirkara");
    await db().update(customers).set({ mobile: "79000013" }).where(eq(customers.id, t.customer_id));
    const c = (await db().query.customers.findFirst({ where: eq(customers.id, t.customer_id) }))!;
    const shop = (await db().query.agents.findFirst({ where: eq(agents.id, ids.birkirkara) }))!;
    const before = { state: t.state, delivery_date: t.delivery_date };
    try {
      // The attack of the report: a ticket in the empty state, the default text "… is now {state}."
      await db().update(tickets).set({ state: "" }).where(eq(tickets.id, t.id));
      const [row] = (await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee })).json.data;
      expect(row.text).toBe(`Dear ${c.full_name}, there is news about your ticket ${t.id} at ${shop.name}: please get in touch with us.`);
      expect(row.text).not.toMatch(/ \.|now\s*\.|:\s*\./);
      // The same for the preview of any template that names the state.
      const pv = await box.call("POST", `${API}/messaging/templates/preview`, {
        token: admin,
        body: { text: "Ticket {ticket_id} is now {state}.", ticket_id: t.id },
      });
      expect(pv.status).toBe(200);
      expect(pv.json.data.text).toStartWith(`Dear ${c.full_name}, there is news`);
      // Control: a named state reads as people say it.
      await db().update(tickets).set({ state: "PICKED UP", delivery_date: null }).where(eq(tickets.id, t.id));
      const named = await box.call("POST", `${API}/messaging/templates/preview`, {
        token: admin,
        body: { text: "Ticket {ticket_id} is now {state}; delivery {delivery_date}.", ticket_id: t.id },
      });
      expect(named.json.data.text).toBe(`Ticket ${t.id} is now picked up; delivery to be agreed.`);
      // A shop without a phone: a template that gives the phone falls back to the neutral text ("Call ." never goes); one that does not is kept.
      await db().update(agents).set({ landline: "", mobile: "" }).where(eq(agents.id, ids.birkirkara));
      const noPhone = await box.call("POST", `${API}/messaging/templates/preview`, { token: admin, body: { text: "Call {shop_phone}.", ticket_id: t.id } });
      expect(noPhone.json.data.text).toStartWith(`Dear ${c.full_name}, there is news`);
      const fine = await box.call("POST", `${API}/messaging/templates/preview`, {
        token: admin,
        body: { text: "Ticket {ticket_id}: {state}.", ticket_id: t.id },
      });
      expect(fine.json.data.text).toBe(`Ticket ${t.id}: picked up.`);
      // Even the neutral text needs the customer's name: without one the message is refused, saying why.
      await db().update(customers).set({ full_name: "" }).where(eq(customers.id, c.id));
      box.clock.advance(STATUS_REPEAT_MS);
      const refused = await box.call("POST", `${API}/messages/${t.id}/status`, { token: employee });
      expect(refused.status).toBe(422);
      expect(refused.json.message).toBe("The message cannot be sent as written: the customer has no name (add it on the customer screen)");
    } finally {
      await db().update(tickets).set(before).where(eq(tickets.id, t.id));
      await db().update(customers).set({ full_name: c.full_name }).where(eq(customers.id, c.id));
      await db().update(agents).set({ landline: shop.landline, mobile: shop.mobile }).where(eq(agents.id, ids.birkirkara));
      await box.messaging.sender.tick();
    }
  });

  test("preview renders for a real ticket (of the caller's shop) with the SMS encoding and parts", async () => {
    const t = await ticketOf("birkirkara");
    const gsm = await box.call("POST", `${API}/messaging/templates/preview`, { token: admin, body: { text: "Ticket {ticket_id} ready", ticket_id: t.id } });
    expect(gsm.json.data).toEqual({ text: `Ticket ${t.id} ready`, sms: { encoding: "GSM-7", parts: 1, length: `Ticket ${t.id} ready`.length } });
    const ucs = await box.call("POST", `${API}/messaging/templates/preview`, { token: admin, body: { text: `${"ħ".repeat(71)}`, ticket_id: t.id } });
    expect(ucs.json.data.sms).toEqual({ encoding: "UCS-2", parts: 2, length: 71 });
    expect((await box.call("POST", `${API}/messaging/templates/preview`, { token: admin, body: { text: "{nope}", ticket_id: t.id } })).status).toBe(422);
    const other = await ticketOf("mosta");
    expect((await box.call("POST", `${API}/messaging/templates/preview`, { token: admin, body: { text: "x", ticket_id: other.id } })).status).toBe(404);
  });
});

describe("settings", () => {
  test("passwords are masked and kept when sent back masked; bad addresses 422; admin only; the test message says what happened", async () => {
    const s = await setGateway(good.url);
    expect(s.values.sms_gateway_url).toBe(`${good.url.replace("s3cret", "***")}/`);
    expect(JSON.stringify(s)).not.toContain("s3cret");
    expect(s.channels.sms).toBeTruthy();
    // Sent back as shown: the stored password stays and messages still go.
    const again = await box.call("PUT", `${API}/messaging/settings`, { token: hqAdmin, body: s.values });
    expect(again.status).toBe(200);
    const test1 = await box.call("POST", `${API}/messaging/settings/test`, { token: admin, body: { channel: "gateway", to: "79000009" } });
    expect(test1.json.data.ok).toBe(true);
    // The masked password never follows the URL to another server, port or user: it must be typed again.
    const shown = new URL(s.values.sms_gateway_url);
    for (const change of [(u: URL) => (u.port = String(busy.url.split(":").pop())), (u: URL) => (u.username = "other")]) {
      const moved = new URL(shown);
      change(moved);
      const r = await box.call("PUT", `${API}/messaging/settings`, { token: hqAdmin, body: { ...s.values, sms_gateway_url: moved.toString() } });
      expect(r.status).toBe(422);
      expect(r.json.message).toContain("type the password again");
    }
    expect(good.received.some((m) => m.to === "79000009")).toBe(true);
    for (const bad of [
      { sms_gateway_url: "ftp://u:p@127.0.0.1:1" },
      { smtp_url: "http://mail.example.com" },
      { modem_path: "/etc/passwd" },
      { smtp_from: "a@b.mt\r\nBcc: x@y.mt" },
    ]) {
      const r = await box.call("PUT", `${API}/messaging/settings`, { token: hqAdmin, body: { ...s.values, ...bad } });
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.json)).not.toContain("s3cret");
    }
    expect((await box.call("GET", `${API}/messaging/settings`, { token: employee })).status).toBe(403);
    expect((await box.call("POST", `${API}/messaging/settings/test`, { token: employee, body: { channel: "smtp", to: "a@b.mt" } })).status).toBe(403);
    const noModem = await box.call("POST", `${API}/messaging/settings/test`, { token: admin, body: { channel: "modem", to: "79000009" } });
    expect(noModem.json.data).toEqual({ ok: false, message: "The GSM modem is not set up" });
    // A shop's admin reads the settings and tests them, but the box's channels are HQ staff's to change.
    const refused = await box.call("PUT", `${API}/messaging/settings`, { token: admin, body: s.values });
    expect(refused.status).toBe(403);
    const wrong = await box.call("PUT", `${API}/messaging/settings`, {
      token: hqAdmin,
      body: { ...s.values, sms_gateway_url: good.url.replace("s3cret", "bad-pass") },
    });
    expect(wrong.status).toBe(200);
    const test2 = await box.call("POST", `${API}/messaging/settings/test`, { token: admin, body: { channel: "gateway", to: "79000009" } });
    expect(test2.json.data.ok).toBe(false);
    expect(test2.json.data.message).toContain("refused the user name or password");
    expect(test2.json.data.message).not.toContain("bad-pass");
  });

  test("the e-mail Test against a server without STARTTLS says why it failed, and the password never left the box", async () => {
    const plain = await startSmtpPeer({ user: "shop", pass: "mail-s3cret" });
    try {
      await setGateway(good.url, { smtp_url: plain.url });
      const r = await box.call("POST", `${API}/messaging/settings/test`, { token: admin, body: { channel: "smtp", to: "owner@example.com" } });
      expect(r.status).toBe(200);
      expect(r.json.data.ok).toBe(false);
      expect(r.json.data.message).toContain("offers no encryption (STARTTLS), so the box did not send it the password");
      expect(r.json.data.message).not.toContain("mail-s3cret");
      expect(plain.authAttempts).toBe(0);
      expect(plain.clientBytes().toString("latin1")).not.toContain("mail-s3cret");
      expect(plain.mails).toHaveLength(0);
    } finally {
      await setGateway(good.url);
      await plain.stop();
    }
  });

  test("environment presets are shown masked and read-only", async () => {
    const preset = await testBox({ env: { IRONBOX_SMS_GATEWAY_URL: good.url } });
    try {
      preset.messaging.sender.pause();
      const token = await preset.employeeToken("9999");
      const s = (await preset.call("GET", `${API}/messaging/settings`, { token })).json.data;
      expect(s.presets).toEqual({ sms_gateway_url: true, modem_path: false, smtp_url: false, smtp_from: false });
      expect(s.values.sms_gateway_url).not.toContain("s3cret");
      const put = await preset.call("PUT", `${API}/messaging/settings`, { token, body: { ...s.values, sms_gateway_url: "http://u:p@192.168.1.9:8080" } });
      expect(put.status).toBe(200);
      expect(put.json.data.values.sms_gateway_url).toBe(s.values.sms_gateway_url);
    } finally {
      preset.close();
    }
  });
});

describe("customers by delivery date", () => {
  test("the caller's shop's customers with a delivery that day", async () => {
    const [mine] = await customerOf("birkirkara");
    const [theirs] = await customerOf("mosta");
    const day = "2031-02-03";
    const t1 = await ticketOf("birkirkara");
    const t2 = await ticketOf("mosta");
    await db().update(tickets).set({ delivery_date: day, customer_id: mine!.id }).where(eq(tickets.id, t1.id));
    await db().update(tickets).set({ delivery_date: day, customer_id: theirs!.id }).where(eq(tickets.id, t2.id));
    const r = await box.call("GET", `${API}/customers/byDeliveryDate/${day}`, { token: employee });
    expect(r.json.data.map((c: { id: number }) => c.id)).toEqual([mine!.id]);
    expect((await box.call("GET", `${API}/customers/byDeliveryDate/2031-02-30`, { token: employee })).status).toBe(422);
  });
});
