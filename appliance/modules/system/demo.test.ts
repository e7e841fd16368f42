import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getBoxSecret, hashPassword, hashPin, verifyPassword } from "../auth/secrets";
import { type Database, migrateDatabase, openDatabase } from "../../../db/client";
import { agents, employees } from "../../../db/schema";
import { ticketsOffPrice } from "../../../scripts/faults/lib";
import { seedDemo } from "./demo";
import { statePath } from "./demoData";

const NOW = new Date("2026-11-22T09:00:00Z");
const clock = { now: () => NOW };
const dirs: string[] = [];

async function freshDb(): Promise<Database> {
  const dir = mkdtempSync(join(tmpdir(), "ironbox-seed-"));
  dirs.push(dir);
  const database = await openDatabase(`file:${join(dir, "t.db")}`);
  await migrateDatabase(database);
  return database;
}

const TABLES = [
  "localities",
  "streets",
  "addresses",
  "preferences",
  "agents",
  "employees",
  "customers",
  "customer_preferences",
  "actions",
  "garment_categories",
  "garment_sub_categories",
  "action_garment_sub_categories",
  "modifiers",
  "configurations",
  "pickup_deliveries",
  "ticket_states",
  "tickets",
  "ticket_sub_categories",
  "ticket_sub_category_actions",
  "ticket_sub_category_modifiers",
  "item_log_states",
  "ticket_log_states",
];

let database: Database;
const rows = async (sql: string) => (await database.client.execute(sql)).rows as unknown as Record<string, any>[];
const counts = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, (await rows(`SELECT count(*) AS n FROM ${t}`))[0]!.n])));

let afterFirst: Record<string, unknown>;
beforeAll(async () => {
  database = await freshDb();
  await seedDemo(database.db, clock);
  afterFirst = await counts();
  await seedDemo(database.db, clock);
});
afterAll(() => {
  database?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

test("a second run adds nothing", async () => {
  expect(await counts()).toEqual(afterFirst);
  expect(afterFirst.customers).toBe(60);
  expect(Number(afterFirst.tickets)).toBeGreaterThanOrEqual(40);
  expect(afterFirst.agents).toBe(3);
  expect(afterFirst.employees).toBe(8);
});

test("the database stays consistent", async () => {
  expect((await rows("PRAGMA integrity_check"))[0]!.integrity_check).toBe("ok");
  expect(await rows("PRAGMA foreign_key_check")).toEqual([]);
});

test("Maltese localities with streets", async () => {
  const names = (await rows("SELECT name FROM localities")).map((r) => r.name);
  expect(names.length).toBeGreaterThanOrEqual(12);
  for (const n of ["Birkirkara", "Mosta", "San Gwann", "Sliema", "St. Julian's"]) expect(names).toContain(n);
  const bare = await rows("SELECT l.name FROM localities l WHERE NOT EXISTS (SELECT 1 FROM streets s WHERE s.locality_id = l.id)");
  expect(bare).toEqual([]);
});

test("ticket states follow spec §4, in order", async () => {
  const states = await rows("SELECT * FROM ticket_states ORDER BY position");
  expect(states.map((s) => s.name)).toEqual([
    "CREATED",
    "",
    "AWAITING PICKUP",
    "PICKED UP",
    "TECNOWASH",
    "MARKED",
    "IN PROGRESS",
    "AWAITING DELIVERY",
    "OUT FOR DELIVERY",
    "B Kara",
    "Mosta",
    "San Gwann",
    "DELIVERED",
    "DELIVERED AND PAID",
    "DELIVERED NOT PAID",
    "CLOSED",
  ]);
  expect(states.map((s) => s.position)).toEqual(states.map((_, i) => i + 1));
  expect(states.filter((s) => s.is_locality_delivery).map((s) => s.name)).toEqual(["B Kara", "Mosta", "San Gwann"]);
  expect(states.filter((s) => s.hidden_in_lists).map((s) => s.name)).toEqual(["CREATED"]);
  expect(states.filter((s) => !s.prices_on_receipt).map((s) => s.name)).toEqual([
    "CREATED",
    "",
    "AWAITING PICKUP",
    "PICKED UP",
    "TECNOWASH",
    "MARKED",
    "IN PROGRESS",
  ]);
});

test("modifiers: all seven types, the six EXPRESS days, swatches and sub-modifiers", async () => {
  const types = (await rows("SELECT DISTINCT type FROM modifiers ORDER BY type")).map((r) => r.type);
  expect(types).toEqual(["BRAND", "COLOR", "DESIGN", "EXPRESS", "MATERIAL", "STAIN", "TAILOR"]);
  const express = await rows("SELECT name, up_charge, is_percentage FROM modifiers WHERE type = 'EXPRESS' ORDER BY \"order\"");
  expect(express.map((m) => m.name)).toEqual(["Same Day", "Next Day", "Third Day", "Fourth Day", "Fifth Day", "Sixth Day"]);
  expect(express.some((m) => m.is_percentage)).toBe(true);
  expect(express.some((m) => !m.is_percentage && m.up_charge > 0)).toBe(true);
  const colors = await rows("SELECT image FROM modifiers WHERE type = 'COLOR'");
  expect(colors.length).toBeGreaterThanOrEqual(5);
  for (const c of colors) expect(c.image).toMatch(/^color:#[0-9a-f]{6}$/);
  const wine = (await rows("SELECT id FROM modifiers WHERE type = 'STAIN' AND name = 'Wine' AND parent_id = 0"))[0]!;
  const children = await rows(`SELECT type FROM modifiers WHERE parent_id = ${wine.id}`);
  expect(children.length).toBeGreaterThan(0);
  expect(children.every((c) => c.type === "STAIN")).toBe(true);
  expect(
    await rows("SELECT id FROM modifiers m WHERE parent_id <> 0 AND NOT EXISTS (SELECT 1 FROM modifiers p WHERE p.id = m.parent_id AND p.parent_id = 0)"),
  ).toEqual([]);
});

test("catalogue: categories with default actions, suits with pieces, percentage prices", async () => {
  const cats = await rows("SELECT type, default_action_id FROM garment_categories");
  expect(new Set(cats.map((c) => c.type))).toEqual(new Set(["Dry Clean", "Laundry", "TECNOWASH"]));
  expect(cats.every((c) => c.default_action_id != null)).toBe(true);

  const suit = (await rows("SELECT * FROM garment_sub_categories WHERE pieces = 'Jacket,Trousers'"))[0]!;
  expect(suit.show_choose_pieces).toBe(1);
  expect((await rows("SELECT name FROM garment_sub_categories WHERE pieces = 'Jacket,Trousers,Waistcoat'")).length).toBe(1);
  expect((await rows("SELECT allow_quantity FROM garment_sub_categories WHERE name = 'Shirt'"))[0]!.allow_quantity).toBe(1);
  expect((await rows("SELECT images_required FROM garment_sub_categories WHERE name = 'Wedding Dress'"))[0]!.images_required).toBe(1);

  const [express] = await rows("SELECT a.up_charge, p.name AS of FROM actions a JOIN actions p ON p.id = a.is_percentage_of WHERE a.name = 'Express Pressing'");
  expect(express).toMatchObject({ up_charge: 15000, of: "Pressing" });

  // Suit 2pc pressing = 60.00% of its dry cleaning, a record of the same garment.
  const [press] = await rows(`SELECT x.price, x.garment_sub_category_id AS g, base.garment_sub_category_id AS base_g, base.price AS base_price
    FROM action_garment_sub_categories x JOIN action_garment_sub_categories base ON base.id = x.is_percentage_of
    JOIN actions a ON a.id = x.action_id WHERE x.garment_sub_category_id = ${suit.id} AND a.name = 'Pressing'`);
  expect(press).toMatchObject({ price: 6000, g: suit.id, base_g: suit.id, base_price: 1500 });
  expect(
    await rows(
      "SELECT x.id FROM action_garment_sub_categories x JOIN action_garment_sub_categories b ON b.id = x.is_percentage_of WHERE b.garment_sub_category_id <> x.garment_sub_category_id",
    ),
  ).toEqual([]);
});

test("workload configuration for every month and pickup/delivery seasons", async () => {
  const conf = await rows("SELECT month, amounts FROM configurations");
  expect(new Set(conf.map((c) => c.month)).size).toBe(12);
  expect(conf.map((c) => c.month)).toContain("JANUARY");
  for (const c of conf) expect(c.amounts).toMatch(/^\d+(,\d+){6}$/);
  expect(new Set((await rows("SELECT season FROM pickup_deliveries")).map((r) => r.season))).toEqual(new Set(["PEAK", "OFFSEASON"]));
});

test("customers: titles, names split on the first space, Maltese mobiles, addresses", async () => {
  const cs = await rows("SELECT * FROM customers");
  for (const c of cs) {
    expect(["Mr.", "Mrs.", "Dr.", "Ing.", "Profs."]).toContain(c.title);
    expect(`${c.first_name} ${c.last_name}`).toBe(c.full_name);
    expect(c.mobile).toMatch(/^(79|99)\d{6}$/);
    expect(c.address_id).not.toBeNull();
  }
  expect(new Set(cs.map((c) => c.agent_id)).size).toBe(3);
});

test("re-pricing every seeded ticket with the pricing engine changes nothing", async () => {
  expect(await ticketsOffPrice(database)).toEqual([]);
  // Customers with a discount have tickets, so the rule is exercised, not just totals without one.
  expect((await rows("SELECT count(*) AS n FROM tickets t JOIN customers c ON c.id = t.customer_id WHERE c.discount > 0"))[0]!.n).toBeGreaterThan(0);
});

test("every item has an action; tickets are paid in full, in part or not at all", async () => {
  expect(
    await rows("SELECT id FROM ticket_sub_categories i WHERE NOT EXISTS (SELECT 1 FROM ticket_sub_category_actions a WHERE a.ticket_sub_category_id = i.id)"),
  ).toEqual([]);
  const perTicket = await rows("SELECT count(*) AS n FROM ticket_sub_categories GROUP BY ticket_id");
  expect(perTicket.every((r) => r.n >= 1 && r.n <= 5)).toBe(true);
  expect(await rows("SELECT id FROM tickets WHERE total_paid > total OR total_paid < 0")).toEqual([]);
  expect((await rows("SELECT count(*) AS n FROM tickets WHERE total_paid = total AND total > 0"))[0]!.n).toBeGreaterThan(0);
  expect((await rows("SELECT count(*) AS n FROM tickets WHERE total_paid > 0 AND total_paid < total"))[0]!.n).toBeGreaterThan(0);
});

test("express items flag their ticket", async () => {
  const express = await rows(`SELECT DISTINCT i.ticket_id FROM ticket_sub_categories i JOIN ticket_sub_category_modifiers m
    ON m.ticket_sub_category_id = i.id WHERE m.modifier_type = 'EXPRESS'`);
  expect(express.length).toBeGreaterThan(0);
  expect(
    await rows(
      "SELECT i.id FROM ticket_sub_categories i WHERE has_express <> EXISTS (SELECT 1 FROM ticket_sub_category_modifiers m WHERE m.ticket_sub_category_id = i.id AND m.modifier_type = 'EXPRESS')",
    ),
  ).toEqual([]);
  expect(
    await rows(
      "SELECT t.id FROM tickets t WHERE has_express_item <> EXISTS (SELECT 1 FROM ticket_sub_categories i WHERE i.ticket_id = t.id AND i.has_express)",
    ),
  ).toEqual([]);
});

test("tickets across states, confirmed unless CREATED, logs ending in their state", async () => {
  const ts = await rows("SELECT * FROM tickets");
  const states = new Set(ts.map((t) => t.state));
  for (const s of ["CREATED", "AWAITING PICKUP", "IN PROGRESS", "AWAITING DELIVERY", "DELIVERED", "CLOSED"]) expect(states).toContain(s);
  for (const t of ts) {
    expect(t.confirmed_at == null).toBe(t.state === "CREATED");
    expect(t.pickup_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(t.created_at).getTime()).toBeLessThanOrEqual(NOW.getTime());
  }
  const lastLogs = await rows(
    `SELECT t.state, (SELECT l.state FROM ticket_log_states l WHERE l.ticket_id = t.id ORDER BY l.logged_at DESC, l.id DESC LIMIT 1) AS last FROM tickets t`,
  );
  for (const l of lastLogs) expect(l.last).toBe(l.state);
  const itemLast = await rows(
    `SELECT i.state, (SELECT l.state FROM item_log_states l WHERE l.ticket_sub_category_id = i.id ORDER BY l.logged_at DESC, l.id DESC LIMIT 1) AS last FROM ticket_sub_categories i`,
  );
  // As the API does it: confirming moves the items without an item log row (the ticket's log says
  // "Ticket confirmed"); every later change logs them.
  for (const l of itemLast) expect(l.last === null ? ["CREATED", "AWAITING PICKUP"] : [l.state]).toContain(l.last ?? l.state);
  const future = await rows(`SELECT id FROM item_log_states WHERE logged_at > '${NOW.toISOString()}'`);
  expect(future).toEqual([]);
});

test("state paths start at CREATED and skip pickup states for counter drop-offs", () => {
  expect(statePath("CLOSED", true)).toEqual([
    "CREATED",
    "AWAITING PICKUP",
    "PICKED UP",
    "MARKED",
    "IN PROGRESS",
    "AWAITING DELIVERY",
    "OUT FOR DELIVERY",
    "DELIVERED AND PAID",
    "CLOSED",
  ]);
  expect(statePath("IN PROGRESS", false)).toEqual(["CREATED", "MARKED", "IN PROGRESS"]);
  expect(() => statePath("NOPE", true)).toThrow();
});

test("employees log in with their PINs; agents with their passwords", async () => {
  const secret = await getBoxSecret(database.db);
  const hq = (await database.db.query.agents.findFirst({ where: (a, { eq }) => eq(a.user_name, "hq") }))!;
  expect(hq.is_hq).toBe(true);
  const maria = (await database.db.query.employees.findFirst({ where: (e, { eq }) => eq(e.pin_hash, hashPin(secret, hq.id, 1111)) }))!;
  expect(maria).toMatchObject({ full_name: "Maria Camilleri", role: "admin", hq: true, agent_id: hq.id });
  expect(maria.pin_hash).not.toBe(hashPin(secret, hq.id, 1112));

  const expected: [string, number, string, string][] = [
    ["hq", 2222, "Joseph Borg", "manager"],
    ["hq", 3333, "Anna Vella", "employee"],
    ["hq", 4444, "Mark Farrugia", "driver"],
    ["birkirkara", 5555, "Claire Zammit", "admin"],
    ["birkirkara", 6666, "Luke Grech", "employee"],
    ["mosta", 7777, "Sarah Azzopardi", "manager"],
    ["mosta", 8888, "Daniel Micallef", "driver"],
  ];
  const all = await database.db.select().from(employees);
  const ags = await database.db.select().from(agents);
  for (const [user, pin, name, role] of expected) {
    const agent = ags.find((a) => a.user_name === user)!;
    expect(all.find((e) => e.agent_id === agent.id && e.pin_hash === hashPin(secret, agent.id, pin))).toMatchObject({ full_name: name, role });
  }
  expect(await verifyPassword("hq-demo-2026", hq.password_hash!)).toBe(true);
  expect(await verifyPassword("shop-demo-2026", ags.find((a) => a.user_name === "mosta")!.password_hash!)).toBe(true);
  expect(await verifyPassword("wrong", ags.find((a) => a.user_name === "birkirkara")!.password_hash!)).toBe(false);
});

describe("on a box set up by first-run", () => {
  test("reuses the HQ agent and skips an employee whose PIN is taken", async () => {
    const db = await freshDb();
    const secret = await getBoxSecret(db.db);
    const [admin] = await db.db
      .insert(agents)
      .values({ name: "Head Quarters", user_name: "admin", is_hq: true, type: "HQ", password_hash: await hashPassword("x") })
      .returning();
    await db.db
      .insert(employees)
      .values({ agent_id: admin!.id, full_name: "Administrator", role: "admin", hq: true, pin_hash: hashPin(secret, admin!.id, 1111) });
    await seedDemo(db.db, clock);
    const ags = (await db.client.execute("SELECT user_name, is_hq FROM agents ORDER BY id")).rows.map((r) => r.user_name);
    expect(ags).toEqual(["admin", "birkirkara", "mosta"]);
    const staff = (await db.client.execute(`SELECT full_name FROM employees WHERE agent_id = ${admin!.id} ORDER BY id`)).rows.map((r) => r.full_name);
    expect(staff).toEqual(["Administrator", "Joseph Borg", "Anna Vella", "Mark Farrugia"]);
    expect((await db.client.execute("SELECT count(*) AS n FROM customers")).rows[0]!.n).toBe(60);
    db.close();
  });
});

test("the same clock gives the same demo data", async () => {
  const db = await freshDb();
  await seedDemo(db.db, clock);
  const dump = async (d: Database) =>
    JSON.stringify(
      await Promise.all(
        ["customers", "tickets", "ticket_sub_categories", "ticket_sub_category_actions", "item_log_states"].map(
          async (t) => (await d.client.execute(`SELECT * FROM ${t} ORDER BY id`)).rows,
        ),
      ),
    );
  expect(await dump(db)).toBe(await dump(database));
  db.close();
});
