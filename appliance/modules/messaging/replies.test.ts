import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { customers, inboundMessages, outgoingMessages, reminders } from "../../../db/schema";
import { type GatewayStandIn, startGatewayStandIn } from "../../../drivers/messaging/testing/android-gateway-stand-in";
import { addDays, businessDay } from "../../domain/dates";
import { parseReply, phoneKey } from "../../domain/replies";
import { weekOf } from "../../domain/schedule";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { signWebhook } from "./inbound";

// Replies that land (issue 35) on the demo data and a real libSQL file: pickup reminders the
// day before, the gateway's signed webhook, YES / SKIP / STOP / anything else, the inbox. The
// sender is paused; reminders are stepped with remind() and the clock moved by hand. Pickups
// are always "tomorrow" of the clock, whatever weekday that is.

const API = "/api/v1";
const SECRET = "webhook-secret-for-tests";
let box: TestBox;
let gateway: GatewayStandIn;
const t: Record<string, string> = {};
let bk = 0;
let mosta = 0;
let driverLocalities: number[] = [];
let hqDriverId = 0;
let clerkId = 0;
const used = new Set<number>();
let event = 0;

const db = () => box.database.db;
const rows = async (sql: string, args: (number | string | null)[] = []) =>
  (await box.database.client.execute({ sql, args })).rows as unknown as Record<string, any>[];
const tomorrow = () => addDays(businessDay(box.clock.now()), 1);

/** A fresh Birkirkara customer (living on the HQ driver's round) reachable at `mobile`. */
async function customerAt(mobile: string, agent = bk) {
  const list = await rows(
    `SELECT c.id, c.address_id FROM customers c JOIN addresses a ON a.id = c.address_id WHERE c.agent_id = ? AND a.locality_id IN (${driverLocalities.join(",")}) ORDER BY c.id`,
    [agent],
  );
  const c = list.find((x) => !used.has(Number(x.id)))!;
  used.add(Number(c.id));
  await rows("UPDATE customers SET mobile = ?, no_messages = 0 WHERE id = ?", [mobile, c.id]);
  return { id: Number(c.id), address_id: Number(c.address_id) };
}
/** A confirmed ticket to collect from this customer on `day`. */
async function pickup(c: { id: number; address_id: number }, day = tomorrow(), agent = bk) {
  const [r] = await rows(
    `INSERT INTO tickets (agent_id, employee_id, customer_id, pickup_date, pickup_from_client, state, total, pickup_address_id, confirmed_at)
     VALUES (?, ?, ?, ?, 1, 'AWAITING PICKUP', 2500, ?, '2026-11-20T10:00:00.000Z') RETURNING id`,
    [agent, clerkId, c.id, day, c.address_id],
  );
  return Number(r!.id);
}
const reminderOf = async (ticketId: number) => (await db().select().from(reminders).where(eq(reminders.ticket_id, ticketId)))[0];

/** Posts a webhook call as the gateway would: signed unless told otherwise. */
async function inbound(phone: string, message: string, o: { id?: string; sign?: string | false; ts?: number; event?: string } = {}) {
  const body = JSON.stringify({
    deviceId: "ffffffffceb0b1db00000193991c27e5",
    event: o.event ?? "sms:received",
    id: o.id ?? `evt-${++event}`,
    payload: { message, receivedAt: "2026-11-22T10:29:55.000+01:00", messageId: "69bde8d0", phoneNumber: phone, simNumber: 1 },
    webhookId: "LreFUt-Z3sSq0JufY9uWB",
  });
  const ts = String(o.ts ?? Math.floor(box.clock.now().getTime() / 1000));
  const headers: Record<string, string> = { "content-type": "application/json", "x-timestamp": ts };
  if (o.sign !== false) headers["x-signature"] = signWebhook(o.sign ?? SECRET, body, ts);
  return box.call("POST", `${API}/messaging/inbound`, { rawBody: body, headers });
}
const run = async (day: string) =>
  (await box.call("GET", `${API}/schedule/run?date=${day}&driver=${hqDriverId}`, { token: t.hqAdmin })).json.data.stops as {
    ticket_id: number;
    kind: string;
    confirmed: boolean;
  }[];
/** Tomorrow's stops at this address's locality as the counter's availability and the week's counts see them. */
async function counts(addressId: number) {
  const day = tomorrow();
  const locality = Number((await rows("SELECT locality_id FROM addresses WHERE id = ?", [addressId]))[0]!.locality_id);
  const a = (await box.call("GET", `${API}/schedule/availability?locality=${locality}&from=${day}&days=1`, { token: t.hqAdmin })).json.data;
  const { year, week } = weekOf(day);
  const w = (await box.call("GET", `${API}/statistics/schedule/week/${week}/year/${year}?limit=0`, { token: t.hqAdmin })).json.data as {
    date: string;
    localities: { id: number; assigned_pickups: number }[];
  }[];
  const assigned = w.find((d) => d.date === day)!.localities.find((l) => l.id === locality)?.assigned_pickups ?? 0;
  return { counter: a.days[0].assigned as number, week: assigned };
}
const inboundCount = async () => Number((await rows("SELECT count(*) AS n FROM inbound_messages"))[0]!.n);

beforeAll(async () => {
  gateway = startGatewayStandIn({ user: "sms", pass: "s3cret", sentAfterMs: 1 });
  box = await testBox({ demo: true, env: { IRONBOX_SMS_WEBHOOK_SECRET: SECRET } });
  box.messaging.sender.pause();
  const agentId = async (u: string) => Number((await rows("SELECT id FROM agents WHERE user_name = ?", [u]))[0]!.id);
  bk = await agentId("birkirkara");
  mosta = await agentId("mosta");
  const [driver] = await rows("SELECT id, localities FROM employees WHERE full_name = 'Mark Farrugia'");
  hqDriverId = Number(driver!.id);
  driverLocalities = String(driver!.localities)
    .split(/[;,]/)
    .map(Number)
    .filter((n) => n > 0);
  clerkId = Number((await rows("SELECT id FROM employees WHERE full_name = 'Luke Grech'"))[0]!.id);
  const shop = await box.agentToken("birkirkara", "shop-demo-2026");
  const mostaShop = await box.agentToken("mosta", "shop-demo-2026");
  t.bkEmployee = await box.employeeToken("6666", shop);
  t.bkAdmin = await box.employeeToken("5555", shop);
  t.mostaManager = await box.employeeToken("7777", mostaShop);
  t.hqAdmin = await box.employeeToken(ADMIN.pin);
  const put = await box.call("PUT", `${API}/messaging/settings`, {
    token: t.hqAdmin,
    body: { sms_gateway_url: gateway.url, modem_path: "", smtp_url: "", smtp_from: "" },
  });
  expect(put.status).toBe(200);
  // The demo's own pickups of tomorrow are reminded here, out of the way of the tests' counts.
  await box.messaging.reminders.remind();
}, 60_000);
afterAll(async () => {
  box?.close();
  await gateway?.stop();
});

describe("the reply grammar", () => {
  test("the three words, with case, spaces and a trailing . ! ? forgiven; anything more is for a person", () => {
    for (const s of ["YES", "yes", " Yes. ", "yes!!", "Yes?"]) expect(parseReply(s)).toBe("yes");
    for (const s of ["SKIP", "skip.", " Skip "]) expect(parseReply(s)).toBe("skip");
    for (const s of ["STOP", "stop!"]) expect(parseReply(s)).toBe("stop");
    for (const s of ["skip please", "y", "yes but at 5", "", "ye s", "no"]) expect(parseReply(s)).toBeNull();
    expect(phoneKey("+356 7912 3456")).toBe("79123456");
    expect(phoneKey("0035679123456")).toBe(phoneKey("79123456"));
  });
});

describe("pickup reminders", () => {
  test("the day before, after quiet hours, once per stop, ending with the question", async () => {
    const c = await customerAt("79110001");
    const night = new Date(box.clock.now());
    // 22:30 in Malta is within the default quiet hours (21:00–08:00): nothing is sent.
    box.clock.set(`${businessDay(night)}T21:30:00Z`);
    const ticket = await pickup(c);
    await box.messaging.reminders.remind();
    expect(await reminderOf(ticket)).toBeUndefined();
    box.clock.set(night);
    await box.messaging.reminders.remind();
    await box.messaging.reminders.remind();
    const r = (await db().select().from(reminders).where(eq(reminders.ticket_id, ticket)))!;
    expect(r.length).toBe(1);
    expect(r[0]).toMatchObject({ outcome: "sent", customer_id: c.id, pickup_date: tomorrow(), answered_at: null });
    const [msg] = await db().select().from(outgoingMessages).where(eq(outgoingMessages.id, r[0]!.outgoing_message_id!));
    expect(msg!.recipient).toBe("79110001");
    expect(msg!.text).toEndWith("Reply YES to confirm or SKIP");
    const [y, m, d] = tomorrow().split("-");
    expect(msg!.text).toContain(`${d}/${m}/${y}`);
  });

  test("a pickup two days away, or a customer who asked for no messages, gets none", async () => {
    const far = await pickup(await customerAt("79110002"), addDays(tomorrow(), 1));
    const quiet = await customerAt("79110003");
    await rows("UPDATE customers SET no_messages = 1 WHERE id = ?", [quiet.id]);
    const none = await pickup(quiet);
    await box.messaging.reminders.remind();
    expect(await reminderOf(far)).toBeUndefined();
    expect((await reminderOf(none))?.outcome).toBe("skipped_no_messages");
  });

  test("after 3 unanswered reminders in a row, only every other pickup is reminded, until one is answered", async () => {
    const c = await customerAt("79110004");
    const start = box.clock.now();
    try {
      const outcomes: string[] = [];
      for (let i = 0; i < 6; i++) {
        const ticket = await pickup(c);
        await box.messaging.reminders.remind();
        outcomes.push((await reminderOf(ticket))!.outcome);
        box.clock.advance(24 * 3600_000);
      }
      expect(outcomes).toEqual(["sent", "sent", "sent", "skipped_backoff", "sent", "skipped_backoff"]);
      // Answered (YES to an open one): reminded every time again.
      const ticket = await pickup(c);
      await box.messaging.reminders.remind();
      expect((await reminderOf(ticket))!.outcome).toBe("sent");
      expect((await inbound("+35679110004", "yes")).status).toBe(200);
      box.clock.advance(24 * 3600_000);
      const next = await pickup(c);
      await box.messaging.reminders.remind();
      expect((await reminderOf(next))!.outcome).toBe("sent");
    } finally {
      box.clock.set(start);
    }
  });
});

test("at a month's end the reminder is about the 1st of the next month", async () => {
  const start = box.clock.now();
  try {
    box.clock.set("2026-11-30T10:00:00Z");
    const ticket = await pickup(await customerAt("79110009"), "2026-12-01");
    await box.messaging.reminders.remind();
    const r = (await reminderOf(ticket))!;
    expect(r).toMatchObject({ outcome: "sent", pickup_date: "2026-12-01" });
    const [msg] = await db().select().from(outgoingMessages).where(eq(outgoingMessages.id, r.outgoing_message_id!));
    expect(msg!.text).toContain("01/12/2026");
  } finally {
    box.clock.set(start);
  }
});

describe("the gateway's webhook", () => {
  test("unsigned, badly signed, signed with another key or too old: 401 and nothing written", async () => {
    const c = await customerAt("79120001");
    await pickup(c);
    await box.messaging.reminders.remind();
    const before = await inboundCount();
    expect((await inbound("79120001", "YES", { sign: false })).status).toBe(401);
    expect((await inbound("79120001", "YES", { sign: "another-key" })).status).toBe(401);
    const old = Math.floor(box.clock.now().getTime() / 1000) - 3600;
    expect((await inbound("79120001", "YES", { ts: old })).status).toBe(401);
    const r = await box.call("POST", `${API}/messaging/inbound`, {
      rawBody: '{"event":"sms:received"}',
      headers: { "content-type": "application/json", "x-timestamp": "1", "x-signature": "00".repeat(32) },
    });
    expect(r.status).toBe(401);
    expect(r.json.message).toStartWith("Token");
    expect(await inboundCount()).toBe(before);
  });

  test("YES confirms the stop on the driver's run; the same event delivered again is applied once", async () => {
    const c = await customerAt("79120002");
    const ticket = await pickup(c);
    await box.messaging.reminders.remind();
    expect((await run(tomorrow())).find((s) => s.ticket_id === ticket)?.confirmed).toBe(false);
    const first = await inbound("+356 7912 0002", " Yes. ", { id: "replayed-1" });
    expect(first.status).toBe(200);
    expect(first.json.data).toEqual({ event: "sms:received", action: "confirmed", duplicate: false });
    const again = await inbound("+356 7912 0002", " Yes. ", { id: "replayed-1" });
    expect(again.json.data.duplicate).toBe(true);
    expect((await db().select().from(inboundMessages).where(eq(inboundMessages.source_id, "gateway:replayed-1"))).length).toBe(1);
    expect(await reminderOf(ticket)).toMatchObject({ answer: "yes" });
    expect((await run(tomorrow())).find((s) => s.ticket_id === ticket)?.confirmed).toBe(true);
  });

  test("SKIP takes the stop off the run (the ticket stays) and tells the shop in its inbox", async () => {
    const c = await customerAt("79120003");
    const ticket = await pickup(c);
    await box.messaging.reminders.remind();
    expect((await run(tomorrow())).some((s) => s.ticket_id === ticket)).toBe(true);
    const before = await counts(c.address_id);
    expect((await inbound("0035679120003", "SKIP")).json.data.action).toBe("skipped");
    expect((await run(tomorrow())).some((s) => s.ticket_id === ticket)).toBe(false);
    // The scheduler agrees with the run: the skipped stop is not counted and its room is free.
    // (Assigned, not left: left is 0 on a day with no van there, and the test holds any weekday.)
    expect(await counts(c.address_id)).toEqual({ counter: before.counter - 1, week: before.week - 1 });
    expect((await rows("SELECT pickup_from_client, total FROM tickets WHERE id = ?", [ticket]))[0]).toMatchObject({ pickup_from_client: 1, total: 2500 });
    const inbox = (await box.call("GET", `${API}/messaging/inbox`, { token: t.bkEmployee })).json.data as {
      customer_id: number;
      action: string;
      note: string;
    }[];
    const e = inbox.find((x) => x.customer_id === c.id)!;
    expect(e.action).toBe("skipped");
    expect(e.note).toContain(`ticket ${ticket}`);
    // Not Mosta's business.
    const other = (await box.call("GET", `${API}/messaging/inbox`, { token: t.mostaManager })).json.data as { customer_id: number }[];
    expect(other.some((x) => x.customer_id === c.id)).toBe(false);
  });

  test("STOP sets the customer's no messages, and no more reminders come", async () => {
    const c = await customerAt("79120004");
    await pickup(c);
    await box.messaging.reminders.remind();
    expect((await inbound("79120004", "stop")).json.data.action).toBe("stopped");
    expect((await db().select().from(customers).where(eq(customers.id, c.id)))[0]!.no_messages).toBe(true);
    const audit = await rows("SELECT action FROM audit_log WHERE entity = 'customer' AND entity_id = ?", [c.id]);
    expect(audit.map((a) => a.action)).toContain("no_messages");
    const next = await pickup(c, addDays(tomorrow(), 1));
    const start = box.clock.now();
    box.clock.advance(24 * 3600_000);
    await box.messaging.reminders.remind();
    box.clock.set(start);
    expect((await reminderOf(next))!.outcome).toBe("skipped_no_messages");
  });

  test("anything else, a word with no reminder waiting, or an unknown number: the inbox", async () => {
    const c = await customerAt("79120005");
    const ticket = await pickup(c);
    await box.messaging.reminders.remind();
    expect((await inbound("79120005", "skip please")).json.data.action).toBe("inbox");
    expect((await reminderOf(ticket))!.answered_at).toBeNull();
    const d = await customerAt("79120006");
    expect((await inbound("79120006", "YES")).json.data.action).toBe("inbox");
    expect((await inbound("+44 7700 900123", "who is this?")).json.data.action).toBe("inbox");
    const inbox = (await box.call("GET", `${API}/messaging/inbox`, { token: t.bkEmployee })).json.data as {
      customer_id: number | null;
      phone: string;
      note: string;
    }[];
    expect(inbox.find((x) => x.customer_id === d.id)?.note).toContain("no pickup reminder");
    expect(inbox.find((x) => x.phone === "+44 7700 900123")?.customer_id).toBeNull();
    // Other events of the gateway are acknowledged and ignored.
    expect((await inbound("79120005", "", { event: "sms:delivered" })).json.data.action).toBe("ignored");
  });
});

describe("the inbox", () => {
  test("staff answer through the outbox and the entry is handled; another shop's entry is not found", async () => {
    const c = await customerAt("79130001");
    await inbound("79130001", "Can you come after 5?");
    const [e] = await db().select().from(inboundMessages).where(eq(inboundMessages.customer_id, c.id));
    expect(e!.agent_id).toBe(bk);
    expect((await box.call("POST", `${API}/messaging/inbox/${e!.id}/reply`, { token: t.mostaManager, body: { text: "x" } })).status).toBe(404);
    const r = await box.call("POST", `${API}/messaging/inbox/${e!.id}/reply`, { token: t.bkEmployee, body: { text: "Yes, after 5 is fine." } });
    expect(r.status).toBe(200);
    expect(r.json.data.handled_at).not.toBeNull();
    const [out] = await db().select().from(outgoingMessages).where(eq(outgoingMessages.id, r.json.data.reply_message_id));
    expect(out).toMatchObject({ recipient: "79130001", text: "Yes, after 5 is fine.", status: "queued", customer_id: c.id });
    await box.messaging.sender.tick();
    expect(gateway.received.some((m) => m.text === "Yes, after 5 is fine.")).toBe(true);
    const open = (await box.call("GET", `${API}/messaging/inbox`, { token: t.bkEmployee })).json.data as { id: number }[];
    expect(open.some((x) => x.id === e!.id)).toBe(false);
    const all = (await box.call("GET", `${API}/messaging/inbox?all=true`, { token: t.bkEmployee })).json.data as { id: number }[];
    expect(all.some((x) => x.id === e!.id)).toBe(true);
    expect((await box.call("POST", `${API}/messaging/inbox/${e!.id}/reply`, { token: t.bkEmployee, body: { text: "" } })).status).toBe(422);
  });

  test("marked handled without an answer", async () => {
    await customerAt("79130002");
    await inbound("79130002", "thanks");
    const [e] = await db().select().from(inboundMessages).where(eq(inboundMessages.phone, "79130002"));
    const r = await box.call("POST", `${API}/messaging/inbox/${e!.id}/handled`, { token: t.bkAdmin });
    expect(r.status).toBe(200);
    expect(r.json.data.handled_by).not.toBeNull();
    expect(r.json.data.reply_message_id).toBeNull();
  });
});
void mosta;
