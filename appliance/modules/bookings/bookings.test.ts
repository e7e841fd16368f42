import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import {
  agents,
  customers,
  employees,
  localities,
  outgoingMessages,
  pickupDeliveries,
  publicBookings,
  shopBookings,
  streets,
  tickets,
} from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { displayDate } from "../../domain/format";
import { type TestBox, testBox } from "../../test/harness";
import { publicKeyText, SIGNING_KEY_FILE, type SigningKey } from "../reference/signing";
import { DEPOSIT_TRANSFER_KIND } from "../money/transferApply";
import { BOOKING_KIND } from "./apply";
import { createDownlinkHq, issuedEnvelopes, siteFor } from "./downlink";
import { openEnvelope, signEnvelope } from "./envelope";
import { createTransferHq } from "./transfers";

// Issue 35, second part: online bookings signed at HQ and applied once at the shop box. A real
// enrolled shop box (demo data, site "bkr") with a Testville of one van stop a day all year, so
// each test holds whatever weekday or month's end the fixed clock says; HQ's side against an
// HQ-mode box reading the shop's database as its copy.
const TOKEN = "t".repeat(40);
const { privateKey, publicKey } = generateKeyPairSync("ed25519");
const key: SigningKey = { privateKey, publicText: publicKeyText(publicKey) };
const wrong: SigningKey = (() => {
  const k = generateKeyPairSync("ed25519");
  return { privateKey: k.privateKey, publicText: publicKeyText(k.publicKey) };
})();

let shop: TestBox;
let locality = 0;
let bkr = 0;
let driver = 0;
let manager = "";
let otherManager = "";
let hqAdmin = "";
const db = () => shop.database.db;
const API = "/api/v1";

let n = 0;
const envelope = (over: { phone?: string; day: string; site?: string; signer?: SigningKey; note?: string }) =>
  signEnvelope(over.signer ?? key, {
    kind: BOOKING_KIND,
    uid: `booking-${++n}-${crypto.randomUUID()}`,
    site: over.site ?? "bkr",
    payload: {
      phone: over.phone ?? "+35679001234",
      locality_id: locality,
      street: "Triq il-Prova",
      number: "12",
      day: over.day,
      note: over.note ?? "Ring twice",
    },
    issued_at: shop.clock.now().toISOString(),
  });
const tomorrow = () => addDays(businessDay(shop.clock.now()), 1);
const ok = async (method: string, path: string, token: string, body?: unknown) => {
  const r = await shop.call(method, `${API}${path}`, { token, body });
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};
const counts = async () => ({
  bookings: (await db().select().from(shopBookings)).length,
  tickets: (await db().select().from(tickets)).length,
  messages: (await db().select().from(outgoingMessages)).length,
});

beforeAll(async () => {
  shop = await testBox({
    demo: true,
    env: {
      IRONBOX_PUBLIC_URL: "https://status.ironbox.test",
      // Nothing answers there: the box's own polls fail quietly; the tests hand it envelopes.
      IRONBOX_HQ_URL: "http://127.0.0.1:9/",
      IRONBOX_HQ_PUBLIC_KEY: key.publicText,
      IRONBOX_HQ_TOKEN: TOKEN,
      IRONBOX_SITE_NAME: "bkr",
    },
  });
  shop.messaging.sender.pause();
  // The box is enrolled, so places and van settings are HQ's (read-only through the API): written here as a snapshot would.
  locality = (await db().insert(localities).values({ name: "Testville" }).returning())[0]!.id;
  await db().insert(streets).values({ locality_id: locality, name: "Triq il-Prova" });
  for (const day_of_week of [0, 1, 2, 3, 4, 5, 6])
    await db()
      .insert(pickupDeliveries)
      .values({ season: "OFFSEASON", day_of_week, quantity: 1, localities: String(locality) });
  bkr = (await db().query.agents.findFirst({ where: eq(agents.user_name, "birkirkara") }))!.id;
  // The demo's van driver is head quarters': its run carries every shop's stops in its localities.
  const d = (await db().query.employees.findFirst({ where: eq(employees.role, "driver") }))!;
  driver = d.id;
  await db()
    .update(employees)
    .set({ localities: String(locality) })
    .where(eq(employees.id, driver));
  // The phone of one of birkirkara's customers.
  const c = (await db().query.customers.findFirst({ where: (x, { eq }) => eq(x.agent_id, bkr) }))!;
  await db().update(customers).set({ mobile: "79001234" }).where(eq(customers.id, c.id));
  hqAdmin = await shop.employeeToken("1111");
  manager = await shop.employeeToken("5555", await shop.agentToken("birkirkara", "shop-demo-2026"));
  otherManager = await shop.employeeToken("7777", await shop.agentToken("mosta", "shop-demo-2026"));
  await ok("PUT", "/messaging/settings", hqAdmin, { sms_gateway_url: "http://sms:s3cret@127.0.0.1:9/", modem_path: "", smtp_url: "", smtp_from: "" });
});
afterAll(() => shop?.close());

describe("a booking applied at the shop", () => {
  test("a wrong signature or another shop's envelope is refused and writes nothing", async () => {
    const before = await counts();
    const forged = await shop.bookings.apply.receive(envelope({ day: tomorrow(), signer: wrong }));
    expect(forged.outcome).toBe("refused");
    expect(forged.reason).toContain("signature");
    const elsewhere = await shop.bookings.apply.receive(envelope({ day: tomorrow(), site: "mosta" }));
    expect(elsewhere.outcome).toBe("refused");
    expect(elsewhere.reason).toContain("addressed to mosta");
    // A signed envelope whose address was changed afterwards fails the signature.
    const e = envelope({ day: tomorrow(), site: "mosta" });
    expect((await shop.bookings.apply.receive({ ...e, site: "bkr" })).outcome).toBe("refused");
    expect(await counts()).toEqual(before);
  });

  test("the phone's customer gets an AWAITING PICKUP ticket on the day, on the scheduler and the run, and a confirmation with the link; a replay changes nothing", async () => {
    const day = tomorrow();
    const e = envelope({ day });
    const before = await counts();
    const r = await shop.bookings.apply.receive(e);
    expect(r.outcome).toBe("applied");
    const b = (await db().select().from(shopBookings).where(eq(shopBookings.uid, e.uid)))[0]!;
    expect(b.status).toBe("applied");
    expect(b.agent_id).toBe(bkr);
    const t = (await db().query.tickets.findFirst({ where: eq(tickets.id, b.ticket_id!) }))!;
    expect(t.state).toBe("AWAITING PICKUP");
    expect(t.customer_id).toBe(b.customer_id!);
    expect(t.pickup_date).toBe(day);
    expect(t.pickup_comment).toBe("Ring twice");
    const customer = (await db().query.customers.findFirst({ where: (x, { eq }) => eq(x.id, b.customer_id!) }))!;
    expect(customer.mobile).toBe("79001234"); // matched by phone across spellings, not created
    // The scheduler's count for the day and the driver's run.
    const a = await ok("GET", `/schedule/availability?locality=${locality}&from=${day}&days=1`, manager);
    expect(a.days[0].assigned).toBe(1);
    const run = await ok("GET", `/schedule/run?date=${day}&driver=${driver}`, hqAdmin);
    expect(run.stops.some((s: { ticket_id: number; kind: string }) => s.ticket_id === t.id && s.kind === "pickup")).toBe(true);
    const [m] = await db().select().from(outgoingMessages).where(eq(outgoingMessages.ticket_id, t.id));
    expect(m!.text).toContain(`booked for ${displayDate(day)}`);
    expect(m!.text).toMatch(/https:\/\/status\.ironbox\.test\/s\/[A-Za-z0-9_-]{24}$/);
    const after = await counts();
    expect(after).toEqual({ bookings: before.bookings + 1, tickets: before.tickets + 1, messages: before.messages + 1 });

    // The same envelope again (replayed, or HQ serving it until its copy shows it applied).
    expect((await shop.bookings.apply.receive(e)).outcome).toBe("replay");
    await Promise.all([shop.bookings.apply.receive(e), shop.bookings.apply.receive(e)]);
    expect(await counts()).toEqual(after);
  });

  test("the counter filled the booked day meanwhile: moved to the next day with room, a new customer created, and the message says so", async () => {
    const day = tomorrow(); // full: the test above booked its one stop
    const e = envelope({ day, phone: "+35699887766" });
    const r = await shop.bookings.apply.receive(e);
    expect(r.outcome).toBe("moved");
    const b = (await db().select().from(shopBookings).where(eq(shopBookings.uid, e.uid)))[0]!;
    expect(b.booked_day).toBe(day);
    expect(b.day).toBe(addDays(day, 1));
    expect(b.status).toBe("moved");
    const t = (await db().query.tickets.findFirst({ where: eq(tickets.id, b.ticket_id!) }))!;
    expect(t.pickup_date).toBe(addDays(day, 1));
    const customer = (await db().query.customers.findFirst({ where: (x, { eq }) => eq(x.id, b.customer_id!) }))!;
    expect(customer.mobile).toBe("+35699887766");
    expect(customer.agent_id).toBe(bkr);
    const [m] = await db().select().from(outgoingMessages).where(eq(outgoingMessages.ticket_id, t.id));
    expect(m!.text).toContain(`Your pickup of ${displayDate(day)} could not be kept`);
    expect(m!.text).toContain(`booked for ${displayDate(addDays(day, 1))} instead`);
  });
});

describe("a stop midway", () => {
  test("the box stops right after the ticket's commit: the resumed delivery makes no second ticket, and the one ticket is confirmed", async () => {
    // A day of its own, so the counts of the other tests stay as they were.
    const e = envelope({ day: addDays(tomorrow(), 5), phone: "+35679001234" });
    let stopped = false;
    const crashing = shop.bookings.applyWith((real) => ({
      tickets: {
        ...real.tickets,
        // The power goes the moment the ticket's transaction has committed.
        create: async (...args: Parameters<typeof real.tickets.create>) => {
          await real.tickets.create(...args);
          stopped = true;
          throw new Error("power cut");
        },
      },
    }));
    const before = await counts();
    await expect(crashing.receive(e)).rejects.toThrow("power cut");
    expect(stopped).toBe(true);
    // The box comes back; HQ serves the envelope again.
    const r = await shop.bookings.apply.receive(e);
    expect(r.outcome).toBe("applied");
    const after = await counts();
    expect(after.tickets).toBe(before.tickets + 1);
    expect(after.messages).toBe(before.messages + 1);
    const b = (await db().select().from(shopBookings).where(eq(shopBookings.uid, e.uid)))[0]!;
    const mine = await db().select().from(tickets).where(eq(tickets.customer_id, b.customer_id!));
    expect(mine.filter((t) => t.pickup_date === b.day).map((t) => [t.id, t.state])).toEqual([[b.ticket_id!, "AWAITING PICKUP"]]);
  });
});

describe("GET and PUT /bookings at the shop", () => {
  test("a shop lists its own bookings, newest first; another shop sees none and may not settle them", async () => {
    const mine = await ok("GET", "/bookings/", manager);
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine[0].id).toBeGreaterThan(mine[1].id);
    expect(mine.every((b: { agent_id: number }) => b.agent_id === bkr)).toBe(true);
    expect(await ok("GET", "/bookings/", otherManager)).toEqual([]);
    expect((await ok("GET", "/bookings/", hqAdmin)).length).toBe(mine.length);
    const r = await shop.call("PUT", `${API}/bookings/${mine[0].id}`, { token: otherManager, body: { status: "cancelled", reason: "not ours" } });
    expect(r.status).toBe(404);
  });

  test("moving to a full day is refused with the next day with room; cancelling takes the stop off the run; the customer is told of each by SMS", async () => {
    const [latest] = await ok("GET", "/bookings/", manager);
    const texts = async () =>
      (await db().select().from(outgoingMessages).where(eq(outgoingMessages.ticket_id, latest.ticket_id))).map((m) => [m.recipient, m.text]);
    const before = await texts();
    const full = tomorrow();
    const r = await shop.call("PUT", `${API}/bookings/${latest.id}`, { token: manager, body: { day: full } });
    expect(r.status).toBe(409);
    expect(r.json.message).toContain("the next day with room is");
    expect(await texts()).toEqual(before); // refused: nothing said
    const later = addDays(full, 3);
    const moved = await ok("PUT", `/bookings/${latest.id}`, manager, { day: later });
    expect(moved.day).toBe(later);
    expect((await ok("GET", `/schedule/run?date=${later}&driver=${driver}`, hqAdmin)).stops.length).toBe(1);
    const link = /\nhttps:\/\/status\.ironbox\.test\/s\/[A-Za-z0-9_-]{24}$/;
    const [toldMoved] = (await texts()).slice(before.length);
    expect(toldMoved![0]).toBe(latest.phone);
    expect(toldMoved![1]).toContain(`Your pickup of ${displayDate(latest.day)} is moved by the shop to ${displayDate(later)} (ticket ${latest.ticket_id}).`);
    expect(toldMoved![1]).toMatch(link);
    const cancelled = await ok("PUT", `/bookings/${latest.id}`, manager, { status: "cancelled", reason: "customer phoned <b>\u202e" });
    expect(cancelled.status).toBe("cancelled");
    expect((await ok("GET", `/schedule/run?date=${later}&driver=${driver}`, hqAdmin)).stops.length).toBe(0);
    const [, toldCancelled] = (await texts()).slice(before.length);
    expect(toldCancelled![1]).toContain(`Your pickup of ${displayDate(later)} is cancelled by the shop (ticket ${latest.ticket_id}).`);
    // The staff's reason stays with the shop.
    expect(toldCancelled![1]).not.toContain("phoned");
    expect(toldCancelled![1]).toMatch(link);
    expect((await shop.call("PUT", `${API}/bookings/${latest.id}`, { token: manager, body: { status: "cancelled", reason: "again" } })).status).toBe(409);
  });
});

describe("HQ's side", () => {
  test("HQ routes a booking to the site whose copy knows the phone, signs it, re-serves it until the shop's copy shows it applied", async () => {
    const hq = await testBox({ env: { IRONBOX_MODE: "hq", IRONBOX_HQ_TOKEN: TOKEN } });
    try {
      writeFileSync(join(hq.dir, SIGNING_KEY_FILE), privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
      const hdb = hq.database.db;
      const loc = (await hdb.insert(localities).values({ id: locality, name: "Testville" }).returning())[0]!.id;
      const copy = { site: "bkr", url: `file:${join(shop.dir, "ironbox.db")}` };
      expect(await siteFor([copy], hq.clock, { phone: "+35679001234", locality_id: loc, day: tomorrow() })).toBe("bkr");
      const uid = crypto.randomUUID();
      await hdb.insert(publicBookings).values({
        uid,
        phone: "+35679001234",
        locality_id: loc,
        street: "Triq il-Prova",
        number: "12",
        day: tomorrow(),
        note: "",
        status: "received",
        created_at: hq.clock.now().toISOString(),
      });
      const down = createDownlinkHq({ db: hdb, clock: hq.clock, key: () => key, copies: () => [copy], log: () => {} });
      const served = await down.serve("bkr", 0);
      expect(served.length).toBe(1);
      expect(await down.serve("mosta", 0)).toEqual([]);
      // The shop applies it; HQ serves it again until it reads the shop's copy, then marks it applied.
      expect((await shop.bookings.apply.receive(served[0]!.envelope)).outcome).not.toBe("refused");
      await down.serve("bkr", 0);
      const [row] = await hdb.select().from(publicBookings).where(eq(publicBookings.uid, uid));
      expect(row!.status).toBe("applied");
      // The route is behind the enrolment token.
      expect((await hq.call("GET", `${API}/bookings/downlink?site=bkr&after=0`)).status).toBe(401);
    } finally {
      hq.close();
    }
  });
});

describe("a deposit transfer rides the same channel (issue 34)", () => {
  const transferEnvelope = (over: { phase: "out" | "in"; id: string; amount: number; signer?: SigningKey }) =>
    signEnvelope(over.signer ?? key, {
      kind: DEPOSIT_TRANSFER_KIND,
      uid: `${over.id}:${over.phase}`,
      site: "bkr",
      payload: { transfer_id: over.id, phase: over.phase, agent_id: bkr, customer_id: null, full_name: "Anyone", mobile: "79001234", amount: over.amount },
      issued_at: shop.clock.now().toISOString(),
    });
  const sides = async (id: string) =>
    (await shop.database.client.execute({ sql: "SELECT kind, amount FROM deposits WHERE transfer_id = ?", args: [id] })).rows.map((r) => Object.values(r));

  test("phase in is applied once, whatever the replays; a forged one is refused", async () => {
    const id = `tr-${crypto.randomUUID()}`;
    const e = transferEnvelope({ phase: "in", id, amount: 1500 });
    expect(await shop.bookings.apply.receive(e)).toMatchObject({ uid: `${id}:in`, outcome: "applied" });
    const again = await Promise.all([shop.bookings.apply.receive(e), shop.bookings.apply.receive(e), shop.bookings.apply.receive(e)]);
    expect(again.map((r) => r.outcome)).toEqual(["replay", "replay", "replay"]);
    expect(await sides(id)).toEqual([["transfer_in", 1500]]);
    const forged = await shop.bookings.apply.receive(transferEnvelope({ phase: "in", id: `tr-${crypto.randomUUID()}`, amount: 1500, signer: wrong }));
    expect(forged.outcome).toBe("refused");
  });

  test("phase out more than the shop holds (spent meanwhile) is refused and no row is written", async () => {
    const id = `tr-${crypto.randomUUID()}`;
    const r = await shop.bookings.apply.receive(transferEnvelope({ phase: "out", id, amount: 999_999 }));
    expect(r).toMatchObject({ outcome: "refused", reason: "Not enough balance to transfer €9999.99: spent meanwhile" });
    expect(await sides(id)).toEqual([]);
  });
});

describe("HQ's side of a deposit transfer (issue 34)", () => {
  test("phase out to the source; phase in only once the source's copy shows it, once; an out spent meanwhile never gets an in", async () => {
    const hq = await testBox({ env: { IRONBOX_MODE: "hq", IRONBOX_HQ_TOKEN: TOKEN } });
    try {
      const shopFile = `file:${join(shop.dir, "ironbox.db")}`;
      const copies = [
        { site: "bkr", url: shopFile },
        { site: "other", url: shopFile },
      ];
      const t = createTransferHq({ db: hq.database.db, clock: hq.clock, key: () => key, copies: () => copies });
      const c = (await db().query.customers.findFirst({ where: (x, { eq }) => eq(x.mobile, "79001234") }))!;
      await ok("POST", `/customers/${c.id}/deposits`, manager, { amount: 10, method: "cash" });
      const held = Number(
        (await shop.database.client.execute({ sql: "SELECT sum(amount) FROM deposits WHERE customer_id = ? AND agent_id = ?", args: [c.id, bkr] })).rows[0]![0],
      );
      const ask = () =>
        t.request({
          from: { site: "bkr", agent_id: bkr },
          to: { site: "other", agent_id: 77 },
          customer: { id: c.id, full_name: c.full_name, mobile: "79001234" },
          cents: held,
        });
      await expect(
        t.request({
          from: { site: "bkr", agent_id: bkr },
          to: { site: "other", agent_id: 77 },
          customer: { id: c.id, full_name: c.full_name, mobile: "79001234" },
          cents: held + 1,
        }),
      ).rejects.toThrow("Not enough balance at bkr");
      // Two requests the copy covers each alone: only one can leave the shop.
      const first = await ask();
      const second = await ask();
      const issued = () => issuedEnvelopes(hq.database.db, DEPOSIT_TRANSFER_KIND);
      expect((await issued()).map((e) => [e.uid, e.site])).toEqual([
        [`${first}:out`, "bkr"],
        [`${second}:out`, "bkr"],
      ]);
      // Nothing applied at the shop yet: no phase in.
      expect(await t.advance()).toBe(0);
      const body = async (uid: string) =>
        JSON.parse((await hq.database.client.execute({ sql: "SELECT body FROM downlinks WHERE uid = ?", args: [uid] })).rows[0]![0] as string);
      const out1 = await body(`${first}:out`);
      expect((await shop.bookings.apply.receive(out1)).outcome).toBe("applied");
      expect((await shop.bookings.apply.receive(out1)).outcome).toBe("replay");
      expect(await shop.bookings.apply.receive(await body(`${second}:out`))).toMatchObject({ outcome: "refused" });
      // The destination's poll runs the pass: its answer carries the phase in, issued once.
      const down = createDownlinkHq({ db: hq.database.db, clock: hq.clock, key: () => key, copies: () => copies, log: () => {}, passes: [t.advance] });
      expect((await down.serve("other", 0)).map((r) => r.envelope.uid)).toEqual([`${first}:in`]);
      expect(await t.advance()).toBe(0);
      const ins = (await issued()).filter((e) => e.uid.endsWith(":in"));
      expect(ins.map((e) => [e.uid, e.site])).toEqual([[`${first}:in`, "other"]]);
      expect(ins[0]!.payload).toMatchObject({ transfer_id: first, phase: "in", agent_id: 77, customer_id: null, mobile: "79001234", amount: held });
      // Signed for the destination only: it opens there, and the source refuses it.
      expect(openEnvelope(await body(`${first}:in`), createPublicKey(key.privateKey), "other").kind).toBe(DEPOSIT_TRANSFER_KIND);
      expect((await shop.bookings.apply.receive(await body(`${first}:in`))).outcome).toBe("refused");
    } finally {
      hq.close();
    }
  });
});
