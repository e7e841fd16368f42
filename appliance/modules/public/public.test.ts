import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { and, desc, eq, ne } from "drizzle-orm";
import { customers, outgoingMessages, publicBookings, publicOtps, statusLinks, tickets } from "../../../db/schema";
import { type GatewayStandIn, startGatewayStandIn } from "../../../drivers/messaging/testing/android-gateway-stand-in";
import { createPublicApp } from "../../http/publicApp";
import { rateLimit } from "../../platform/rateLimit";
import { type TestBox, testBox } from "../../test/harness";
import { createStatusLinks, newToken, TOKEN_PATTERN } from "./links";
import { CODE_REFUSED, CODE_SENT } from "./otp";
import { defaultLimits, type PublicLimits, publicRoutes } from "./routes";
import { createPublicService, NO_SUCH_LINK } from "./service";

// Issue 35, the public face, against a real demo box (libSQL file, real migrations). The
// box's clock is fixed (Sunday 2026-11-22); the capacity tests give their own locality one
// stop on every weekday all year, so they hold whatever day the clock says.
const PUBLIC_URL = "https://status.ironbox.test";
const API = "/api/v1";
let box: TestBox;
let gateway: GatewayStandIn;
let hqAdmin: string;
let shopManager: string; // birkirkara
let shopEmployee: string; // birkirkara
let otherManager: string; // mosta
const ids = { ticket: 0, customer: 0, locality: 0, street: 0 };
let app: ReturnType<typeof createPublicApp>;

/** Limits no test reaches by accident (the rate-limit tests use the box's own, or fresh ones). */
const roomy = (): PublicLimits => {
  const big = () => rateLimit({ burst: 10_000, everyMs: 1 });
  return { status: big(), pickupDays: big(), otpAddress: big(), otpPhone: big(), bookingAddress: big(), bookingPhone: big() };
};
const db = () => box.database.db;

async function pub(a: { handle(r: Request): Promise<Response> }, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await a.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, text, headers: res.headers };
}
const staff = (method: string, path: string, token: string, body?: unknown) => box.call(method, `${API}${path}`, { token, body });
const ok = async (method: string, path: string, token: string, body?: unknown) => {
  const r = await staff(method, path, token, body);
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data;
};

/** Sends the ticket's status message and answers the link's token, read from the queued text. */
async function linkOf(ticketId: number): Promise<string> {
  box.clock.advance(61_000); // status messages of one ticket are a minute apart at least
  const [row] = await ok("POST", `/messages/${ticketId}/status`, shopEmployee);
  const m = /https:\/\/status\.ironbox\.test\/s\/([A-Za-z0-9_-]+)$/.exec(row.text);
  if (!m) throw new Error(`no link in ${row.text}`);
  return m[1]!;
}
async function lastCode(mobile: string): Promise<string> {
  const [row] = await db().select().from(outgoingMessages).where(eq(outgoingMessages.recipient, mobile)).orderBy(desc(outgoingMessages.id)).limit(1);
  return /^(\d{6}) /.exec(row!.text)![1]!;
}

beforeAll(async () => {
  gateway = startGatewayStandIn({ user: "sms", pass: "s3cret", sentAfterMs: 5 });
  box = await testBox({ demo: true, env: { IRONBOX_PUBLIC_URL: PUBLIC_URL } });
  box.messaging.sender.pause();
  hqAdmin = await box.employeeToken("1111");
  const bkr = await box.agentToken("birkirkara", "shop-demo-2026");
  shopManager = await box.employeeToken("5555", bkr); // a shop admin: may revoke
  shopEmployee = await box.employeeToken("6666", bkr);
  otherManager = await box.employeeToken("7777", await box.agentToken("mosta", "shop-demo-2026"));
  await ok("PUT", "/messaging/settings", hqAdmin, { sms_gateway_url: gateway.url, modem_path: "", smtp_url: "", smtp_from: "" });
  const bkrId = (await db().query.agents.findFirst({ where: (a, { eq }) => eq(a.user_name, "birkirkara") }))!.id;
  const t = await db().query.tickets.findFirst({ where: and(eq(tickets.agent_id, bkrId), ne(tickets.state, "CREATED")) });
  ids.ticket = t!.id;
  ids.customer = t!.customer_id;
  await db().update(customers).set({ mobile: "79001234" }).where(eq(customers.id, ids.customer));
  app = createPublicApp({ db: db(), clock: box.clock, ...publicRoutes(box.publicService, roomy()) });

  // Testville: one stop a day, every weekday, all year (an undated season always applies).
  ids.locality = (await ok("POST", "/localities/", hqAdmin, { name: "Testville" })).id;
  ids.street = (await ok("POST", "/streets/", hqAdmin, { locality_id: ids.locality, name: "Triq il-Prova" })).id;
  const settings = await ok("GET", "/pickupDeliveries/", hqAdmin);
  const mine = [0, 1, 2, 3, 4, 5, 6].map((day_of_week) => ({ season: "OFFSEASON", day_of_week, quantity: 1, localities: [ids.locality] }));
  await ok("POST", "/pickupDeliveries/", hqAdmin, [...settings, ...mine]);
});
afterAll(async () => {
  box?.close();
  await gateway?.stop();
});

describe("status links", () => {
  test("a token is 144 random bits in 24 URL-safe characters; only its SHA-256 is stored; each message mints its own", async () => {
    const many = new Set(Array.from({ length: 2000 }, newToken));
    expect(many.size).toBe(2000);
    for (const t of many) {
      expect(t).toMatch(TOKEN_PATTERN);
      expect(Buffer.from(t, "base64url").length).toBe(18);
    }
    const a = await linkOf(ids.ticket);
    const b = await linkOf(ids.ticket);
    expect(a).not.toBe(b);
    const rows = await db().select().from(statusLinks).where(eq(statusLinks.ticket_id, ids.ticket!));
    const hashes = rows.map((r) => r.token_hash);
    expect(hashes).toContain(createHash("sha256").update(a).digest("hex"));
    // Nowhere in the database in plain text (the outbox's own copy of the message aside).
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(a);
    expect(dump).not.toContain(b);
  });

  test("the status answer carries exactly the allowed fields, and nothing about the customer", async () => {
    const token = await linkOf(ids.ticket);
    const r = await pub(app, "GET", `/public/v1/status/${token}`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json.data).sort()).toEqual(["balance", "delivery", "garments", "pickup", "shop", "state", "ticket"]);
    expect(Object.keys(r.json.data.shop).sort()).toEqual(["name", "phone"]);
    for (const g of r.json.data.garments) expect(Object.keys(g).sort()).toEqual(["name", "quantity"]);
    expect(r.json.data.ticket).toBe(ids.ticket);
    const t = (await db().query.tickets.findFirst({ where: eq(tickets.id, ids.ticket!) }))!;
    expect(r.json.data.balance).toBe(Math.max(0, t.total - t.total_paid) / 100);
    const c = (await db().query.customers.findFirst({ where: eq(customers.id, ids.customer!) }))!;
    for (const secret of [c.full_name, c.mobile, c.email_address].filter((s) => s.length > 3)) expect(r.text).not.toContain(secret);
    expect(r.headers.get("content-security-policy")).toStartWith("default-src 'none'");
  });

  test("unknown, malformed, revoked and expired tokens get one identical answer; revoking is a manager's, of the own shop", async () => {
    const answers = [];
    answers.push(await pub(app, "GET", `/public/v1/status/${newToken()}`));
    answers.push(await pub(app, "GET", "/public/v1/status/short"));
    const token = await linkOf(ids.ticket);
    expect((await pub(app, "GET", `/public/v1/status/${token}`)).status).toBe(200);
    expect((await staff("PUT", `/tickets/${ids.ticket}/statusLink/revoke`, shopEmployee)).status).toBe(403);
    expect((await staff("PUT", `/tickets/${ids.ticket}/statusLink/revoke`, otherManager)).status).toBe(404);
    expect((await pub(app, "GET", `/public/v1/status/${token}`)).status).toBe(200);
    const revoked = await ok("PUT", `/tickets/${ids.ticket}/statusLink/revoke`, shopManager);
    expect(revoked.revoked).toBeGreaterThanOrEqual(1);
    answers.push(await pub(app, "GET", `/public/v1/status/${token}`));

    // Expired: delivered 91 days before now (a link minted after the revoke, then the clock moves on).
    const fresh = await linkOf(ids.ticket);
    const now = box.clock.now();
    const original = (await db().query.tickets.findFirst({ where: eq(tickets.id, ids.ticket) }))!.state;
    await box.database.client.execute({ sql: "UPDATE tickets SET state = 'DELIVERED' WHERE id = ?", args: [ids.ticket] });
    await box.database.client.execute({
      sql: "INSERT INTO ticket_log_states (ticket_id, state, logged_at) VALUES (?, 'DELIVERED', ?)",
      args: [ids.ticket, now.toISOString()],
    });
    expect((await pub(app, "GET", `/public/v1/status/${fresh}`)).status).toBe(200);
    box.clock.advance(89 * 86_400_000);
    expect((await pub(app, "GET", `/public/v1/status/${fresh}`)).status).toBe(200);
    box.clock.advance(2 * 86_400_000);
    answers.push(await pub(app, "GET", `/public/v1/status/${fresh}`));
    box.clock.set(now);
    await box.database.client.execute({ sql: "UPDATE tickets SET state = ? WHERE id = ?", args: [original, ids.ticket] });

    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a.text).toBe(answers[0]!.text);
    }
    expect(answers[0]!.json.message).toBe(NO_SUCH_LINK);
  });

  test("the status page is HTML without script under a strict CSP; a bad token's page says so, 404", async () => {
    const token = await linkOf(ids.ticket);
    const page = await pub(app, "GET", `/s/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toStartWith("text/html");
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(page.text).toContain(`Ticket ${ids.ticket}`);
    expect(page.text).not.toContain("<script");
    const bad = await pub(app, "GET", `/s/${newToken()}`);
    expect(bad.status).toBe(404);
    expect(bad.text).toContain("Link not valid");
  });

  test("HQ answers a shop's link from the shop's restored copy, read only", async () => {
    const token = await linkOf(ids.ticket);
    const copy = join(box.dir, "site-copy.db");
    const source = new Database(join(box.dir, "ironbox.db"));
    source.run(`VACUUM INTO '${copy}'`);
    source.close();
    const hq = await testBox({ env: { IRONBOX_PUBLIC_URL: PUBLIC_URL } });
    try {
      const links = createStatusLinks({ db: hq.database.db, clock: hq.clock, publicUrl: PUBLIC_URL });
      const unused = { availability: () => Promise.reject(new Error("not asked")) };
      const service = createPublicService({ db: hq.database.db, clock: box.clock, links, scheduling: unused, messaging: { queueCode: async () => null } });
      expect(await service.status(token)).toBeNull();
      const withCopies = createPublicService({
        db: hq.database.db,
        clock: box.clock,
        links,
        scheduling: unused,
        messaging: { queueCode: async () => null },
        siteCopies: () => [{ site: "birkirkara", url: `file:${copy}` }],
      });
      const found = await withCopies.status(token);
      expect(found?.ticket).toBe(ids.ticket);
      expect(await withCopies.status(newToken())).toBeNull();
    } finally {
      hq.close();
    }
  });
});

describe("links in messages", () => {
  test("the preview shows a link as long as the one sent (the SMS cost is the real one) and mints none", async () => {
    const before = (await db().select().from(statusLinks)).length;
    const preview = await ok("GET", `/messages/${ids.ticket}/status/preview`, shopEmployee);
    expect(preview.text).toMatch(/\nhttps:\/\/status\.ironbox\.test\/s\/x{24}$/);
    expect((await db().select().from(statusLinks)).length).toBe(before);
    const token = await linkOf(ids.ticket);
    const [sent] = await db().select().from(outgoingMessages).where(eq(outgoingMessages.ticket_id, ids.ticket)).orderBy(desc(outgoingMessages.id)).limit(1);
    expect(sent!.text.length).toBe(preview.text.length);
    expect(sent!.text.endsWith(token)).toBe(true);
  });

  test("an automatic message carries a live link too", async () => {
    const state = "AWAITING DELIVERY";
    hqAdmin = await box.employeeToken("1111"); // the links' minutes apart have idled HQ's session
    const templates = (await staff("GET", "/messaging/templates", shopEmployee)).json.data as { state_id: number; state: string }[];
    const stateId = templates.find((t) => t.state === state)!.state_id;
    await ok("PUT", `/messaging/templates/${stateId}`, hqAdmin, { text: "Ticket {ticket_id} is {state}.", auto_send: true });
    await box.messaging.auto.follow();
    const original = (await db().query.tickets.findFirst({ where: eq(tickets.id, ids.ticket) }))!.state;
    await box.database.client.execute({ sql: "UPDATE tickets SET state = ? WHERE id = ?", args: [state, ids.ticket] });
    await box.database.client.execute({
      sql: "INSERT INTO ticket_log_states (ticket_id, state, logged_at) VALUES (?, ?, ?)",
      args: [ids.ticket, state, box.clock.now().toISOString()],
    });
    expect((await box.messaging.auto.follow()).queued).toBe(1);
    const [row] = await db().select().from(outgoingMessages).where(eq(outgoingMessages.ticket_id, ids.ticket)).orderBy(desc(outgoingMessages.id)).limit(1);
    const token = /\/s\/([A-Za-z0-9_-]{24})$/.exec(row!.text)![1]!;
    const r = await pub(app, "GET", `/public/v1/status/${token}`);
    expect(r.status).toBe(200);
    expect(r.json.data.state).toBe("ready for delivery");
    await box.database.client.execute({ sql: "UPDATE tickets SET state = ? WHERE id = ?", args: [original, ids.ticket] });
  });
});

describe("the public listener", () => {
  test("mounts only public routes: staff API routes, the staff UI and its OpenAPI are not there", async () => {
    for (const path of [`${API}/customers/`, `${API}/openapi.json`, `${API}/tickets/${ids.ticket}`, "/", "/index.html", "/login"]) {
      const r = await pub(box.publicApp, "GET", path, undefined, { authorization: `token ${hqAdmin}` });
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ success: false, message: "Not found" });
    }
    expect((await pub(box.publicApp, "PUT", `/api/v1/tickets/${ids.ticket}/statusLink/revoke`, undefined, { authorization: `token ${hqAdmin}` })).status).toBe(
      404,
    );
    expect(box.publicRoutes.api.every((r) => "public" in r.access)).toBe(true);
  });

  test("keeps the box's host check", async () => {
    const res = await box.publicApp.handle(new Request(`http://evil.example/public/v1/pickupDays?locality=${ids.locality}`));
    expect(res.status).toBe(421);
    const named = await box.publicApp.handle(new Request(`http://status.ironbox.test/public/v1/pickupDays?locality=${ids.locality}`));
    expect(named.status).toBe(200);
  });

  test("rate limits per address (the box's own limits) and per phone", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await pub(box.publicApp, "GET", `/public/v1/status/${newToken()}`)).status);
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
    // Per phone: the 4th code to one phone within minutes, from any address.
    const limits = { ...roomy(), otpPhone: defaultLimits().otpPhone };
    const limited = createPublicApp({ db: db(), clock: box.clock, ...publicRoutes(box.publicService, limits) });
    const codes = [];
    for (const phone of ["+356 7900 9999", "79009999", "+35679009999", "7900 9999"])
      codes.push((await pub(limited, "POST", "/public/v1/otp", { phone })).status);
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  test("tokens never reach the log, even when a lookup fails", async () => {
    const lines: string[] = [];
    const failing = { ...box.publicService, status: async () => Promise.reject(new Error("database exploded")) };
    const logged = createPublicApp({ db: db(), clock: box.clock, ...publicRoutes(failing, roomy()), log: (m, e) => lines.push(`${m} ${e ?? ""}`) });
    const token = newToken();
    expect((await pub(logged, "GET", `/public/v1/status/${token}`)).status).toBe(500);
    expect((await pub(logged, "GET", `/s/${token}`)).status).toBe(500);
    expect(lines.length).toBe(2);
    for (const l of lines) {
      expect(l).not.toContain(token);
      expect(l).toContain("[token]");
    }
  });
});

describe("online pickups", () => {
  test("one-time codes: the same answer for an unknown phone, and only a known one gets a code", async () => {
    const before = (await db().select().from(outgoingMessages)).length;
    const unknown = await pub(app, "POST", "/public/v1/otp", { phone: "+356 9999 0000" });
    expect(unknown.status).toBe(200);
    expect((await db().select().from(outgoingMessages)).length).toBe(before);
    const known = await pub(app, "POST", "/public/v1/otp", { phone: "7900 1234" });
    expect(known.text).toBe(unknown.text);
    expect(known.json.data.message).toBe(CODE_SENT);
    const code = await lastCode("+35679001234");
    const [otp] = await db().select().from(publicOtps).where(eq(publicOtps.phone, "+35679001234")).orderBy(desc(publicOtps.id)).limit(1);
    expect(otp!.code_hash).not.toContain(code);
    expect(JSON.stringify(otp)).not.toContain(`"${code}"`);
  });

  test("pickupDays are the counter's own days with room, and stay so after a day fills", async () => {
    const counter = async () => {
      const tomorrow = (await pub(app, "GET", `/public/v1/pickupDays?locality=${ids.locality}`)).json.data.days;
      return tomorrow;
    };
    const days = await counter();
    expect(days.length).toBe(14);
    const from = days[0].day;
    const a = await ok("GET", `/schedule/availability?locality=${ids.locality}&from=${from}&days=14&default_date=${from}`, shopEmployee);
    expect(days.map((d: { day: string }) => d.day)).toEqual(a.days.filter((d: { left: number }) => d.left > 0).map((d: { date: string }) => d.date));
    expect(days[0].day).toBe(a.proposed);
    expect(days[0].shown).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);

    // The counter fills the first day with a confirmed pickup: the web and the counter both move on.
    const t = await ok("POST", "/tickets/", shopEmployee, { customer_id: ids.customer });
    const garment = (await db().query.garmentSubCategories.findFirst())!.id;
    await ok("POST", "/ticketSubCategory/", shopEmployee, { ticket_id: t.id, garment_sub_category_id: garment });
    const address = (await ok("POST", "/address/", shopEmployee, { name: "Office", number: "3", locality_id: ids.locality, street_id: ids.street })).id;
    await ok("PUT", `/tickets/${t.id}/deliveryPickupOptions?pickup=true`, shopEmployee, { pickup_date: from, pickup_address_id: address });
    await ok("PUT", `/tickets/${t.id}/confirm`, shopEmployee);
    const after = await counter();
    const b = await ok("GET", `/schedule/availability?locality=${ids.locality}&from=${from}&days=14&default_date=${from}`, shopEmployee);
    expect(b.days[0].left).toBe(0);
    expect(after.map((d: { day: string }) => d.day)).not.toContain(from);
    expect(after[0].day).toBe(b.proposed);

    const none = await pub(app, "GET", "/public/v1/pickupDays?locality=999999");
    expect(none.status).toBe(200);
    expect(none.json.data).toEqual({ locality_id: 999999, days: [] });
  });

  test("a wrong code five times burns it: the right code is then refused; a new code books, once per day's room", async () => {
    const phone = "79001234";
    await pub(app, "POST", "/public/v1/otp", { phone });
    const code = await lastCode("+35679001234");
    const wrong = code === "000000" ? "000001" : "000000";
    const day = (await pub(app, "GET", `/public/v1/pickupDays?locality=${ids.locality}`)).json.data.days[0].day;
    const booking = (c: string, d = day) => ({
      phone,
      code: c,
      locality: ids.locality,
      street: "Triq il-Prova",
      number: "12",
      day: d,
      note: "Ring\u0007 twice",
    });
    for (let i = 0; i < 5; i++) {
      const r = await pub(app, "POST", "/public/v1/bookings", booking(wrong));
      expect(r.status).toBe(422);
      expect(r.json.message).toBe(CODE_REFUSED);
    }
    const sixth = await pub(app, "POST", "/public/v1/bookings", booking(code));
    expect(sixth.status).toBe(422);
    expect(sixth.json.message).toBe(CODE_REFUSED);
    expect(await db().select().from(publicBookings)).toEqual([]);

    await pub(app, "POST", "/public/v1/otp", { phone });
    const good = await pub(app, "POST", "/public/v1/bookings", booking(await lastCode("+35679001234")));
    expect(good.status).toBe(200);
    expect(good.json.data).toMatchObject({ day, status: "received" });
    const [row] = await db().select().from(publicBookings);
    expect(row).toMatchObject({ uid: good.json.data.id, phone: "+35679001234", locality_id: ids.locality, day, status: "received", note: "Ring twice" });
    // A used code books nothing more.
    expect((await pub(app, "POST", "/public/v1/bookings", booking(await lastCode("+35679001234")))).status).toBe(422);

    // The one stop of that day is taken: the web no longer offers it, and booking it answers 409 with the next day.
    const days = (await pub(app, "GET", `/public/v1/pickupDays?locality=${ids.locality}`)).json.data.days;
    expect(days.map((d: { day: string }) => d.day)).not.toContain(day);
    await pub(app, "POST", "/public/v1/otp", { phone });
    const full = await pub(app, "POST", "/public/v1/bookings", booking(await lastCode("+35679001234")));
    expect(full.status).toBe(409);
    expect(full.json.message).toContain(`(${days[0].day})`);
  });
});

describe("the OpenAPI document and the fuzz walk", () => {
  test("every public route and the revoke route are in the OpenAPI document", async () => {
    const doc = (await box.call("GET", `${API}/openapi.json`)).json;
    const paths = doc.data?.paths ?? doc.paths;
    for (const [p, m] of [
      ["/public/v1/status/{token}", "get"],
      ["/public/v1/pickupDays", "get"],
      ["/public/v1/otp", "post"],
      ["/public/v1/bookings", "post"],
      ["/api/v1/tickets/{id}/statusLink/revoke", "put"],
    ] as const) {
      expect(paths[p]?.[m]).toBeDefined();
    }
    expect(paths["/public/v1/status/{token}"].get["x-access"]).toBe("public");
  });

  test("odd input on every public route answers 4xx, never 5xx", async () => {
    const odd: unknown[] = [null, [], {}, "x", 1, { phone: 123 }, { phone: "x".repeat(5000) }, { phone: "+356 7900 1234", code: "12345a" }];
    odd.push({ phone: "79001234", code: "123456", locality: -1, street: "", number: "1", day: "2026-02-30" });
    odd.push({ phone: "79001234", code: "123456", locality: ids.locality, street: "a", number: "1", day: "1999-01-01", extra: 1 });
    const paths = [
      "/public/v1/status/%00",
      `/public/v1/status/${"a".repeat(300)}`,
      "/public/v1/status/'%20OR%201=1",
      "/s/%E2%80%AE",
      "/public/v1/pickupDays",
      "/public/v1/pickupDays?locality=abc",
      "/public/v1/pickupDays?locality=1e309",
      "/public/v1/pickupDays?locality=1&locality=2",
    ];
    for (const p of paths) {
      const r = await pub(app, "GET", p);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    for (const route of ["/public/v1/otp", "/public/v1/bookings"]) {
      for (const body of odd) {
        const r = await pub(app, "POST", route, body);
        expect(r.status).toBeLessThan(500);
        if (r.status !== 200) expect(r.status).toBeGreaterThanOrEqual(400);
      }
      const raw = await app.handle(
        new Request(`http://localhost${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" }),
      );
      expect(raw.status).toBe(400);
      const form = await app.handle(
        new Request(`http://localhost${route}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "phone=1" }),
      );
      expect(form.status).toBe(415);
    }
  });
});
