import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { desc, eq } from "drizzle-orm";
import { customers, outgoingMessages, statusLinks, tickets } from "../../../db/schema";
import { createPublicApp } from "../../http/publicApp";
import { type TestBox, testBox } from "../../test/harness";
import { type PublicFace, PUBLIC_URL, pub, roomy, setUpPublicFace } from "../../test/publicFace";
import { createStatusLinks, newToken, TOKEN_PATTERN } from "./links";
import { defaultLimits, publicRoutes } from "./routes";
import { createPublicService, NO_SUCH_LINK } from "./service";

// Issue 35, status links and the public listener, against a real demo box (libSQL file, real
// migrations, test/publicFace.ts). The box's clock is fixed (Sunday 2026-11-22).
let f: PublicFace;
let box: TestBox;
let app: PublicFace["app"];
let ids: PublicFace["ids"];
let hqAdmin: string;
let shopManager: string;
let shopEmployee: string;
let otherManager: string;
const db = () => box.database.db;
const staff = (method: string, path: string, token: string, body?: unknown) => f.staff(method, path, token, body);
const ok = (method: string, path: string, token: string, body?: unknown) => f.ok(method, path, token, body);
const linkOf = (ticketId: number) => f.linkOf(ticketId);
const API = "/api/v1";

beforeAll(async () => {
  f = await setUpPublicFace();
  ({ box, app, ids } = f);
  ({ hqAdmin, shopManager, shopEmployee, otherManager } = f.tokens);
});
afterAll(() => f?.close());

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
