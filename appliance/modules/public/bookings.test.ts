import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { desc, eq } from "drizzle-orm";
import { customers, outgoingMessages, publicBookings, publicOtps } from "../../../db/schema";
import type { TestBox } from "../../test/harness";
import { type PublicFace, pub, setUpPublicFace } from "../../test/publicFace";
import { CODE_REFUSED, CODE_SENT } from "./otp";

// Issue 35, online pickups: codes, the days offered against the counter's, bookings; and the
// OpenAPI document and odd input, against a real demo box (test/publicFace.ts). Testville has
// one stop a day all year, so these hold whatever day the fixed clock says.
let f: PublicFace;
let box: TestBox;
let app: PublicFace["app"];
let ids: PublicFace["ids"];
let shopEmployee: string;
const db = () => box.database.db;
const ok = (method: string, path: string, token: string, body?: unknown) => f.ok(method, path, token, body);
const lastCode = (mobile: string) => f.lastCode(mobile);
const API = "/api/v1";

beforeAll(async () => {
  f = await setUpPublicFace();
  ({ box, app, ids } = f);
  ({ shopEmployee } = f.tokens);
});
afterAll(() => f?.close());

describe("online pickups", () => {
  test("one-time codes: the same answer for every phone; a new customer's gets a code too, filed under the box's head-quarters agent", async () => {
    const unknown = await pub(app, "POST", "/public/v1/otp", { phone: "+356 9999 0000" });
    expect(unknown.status).toBe(200);
    const [toNew] = await db().select().from(outgoingMessages).where(eq(outgoingMessages.recipient, "+35699990000"));
    expect(toNew!.text).toMatch(/^\d{6} is your code/);
    expect(toNew!.customer_id).toBeNull();
    expect((await db().query.agents.findFirst({ where: (a, { eq }) => eq(a.id, toNew!.agent_id) }))!.is_hq).toBe(true);
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

describe("the last room, booked twice at once", () => {
  test("two concurrent bookings for a day's last room: one is booked, the other gets 409 with the next day", async () => {
    // A second known mobile, so each request has its own good code.
    const other = (await db().query.customers.findFirst({ where: (c, { ne }) => ne(c.id, ids.customer) }))!;
    await db().update(customers).set({ mobile: "79005678" }).where(eq(customers.id, other.id));
    const days = (await pub(app, "GET", `/public/v1/pickupDays?locality=${ids.locality}`)).json.data.days;
    // Testville has one stop a day: the last offered day has exactly one room left.
    const day = days.at(-2).day;
    const codes: string[] = [];
    for (const phone of ["79001234", "79005678"]) {
      await pub(app, "POST", "/public/v1/otp", { phone });
      codes.push(await lastCode(`+356${phone}`));
    }
    const body = (phone: string, code: string) => ({ phone, code, locality: ids.locality, street: "Triq il-Prova", number: "1", day, note: "" });
    const answers = await Promise.all([
      pub(app, "POST", "/public/v1/bookings", body("79001234", codes[0]!)),
      pub(app, "POST", "/public/v1/bookings", body("79005678", codes[1]!)),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.json.message).toContain(`(${days.at(-1).day})`);
    expect((await db().select().from(publicBookings).where(eq(publicBookings.day, day))).length).toBe(1);
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
