import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

/**
 * Scheduling API on the demo data, clock at Sunday 22 November 2026 (week 48). Week 49 runs
 * Sunday 29 November to Saturday 5 December; its Monday takes the demo's OFFSEASON centre
 * round (Birkirkara, Balzan … 20 stops each), Tuesday the north round (Mosta, Naxxar).
 */
let box: TestBox;
const t: Record<string, string> = {};
const MONDAY = "2026-11-30";
const TUESDAY = "2026-12-01";
let loc: Record<string, number>;
let bkCustomer: { id: number; address_id: number };
let mostaCustomer: { id: number; address_id: number };
let ids: { hq: number; bk: number; mosta: number; hqAdmin: number; bkClerk: number; mostaManager: number; hqDriver: number; mostaDriver: number };

const rows = async (sql: string, args: (number | string | null)[] = []) =>
  (await box.database.client.execute({ sql, args })).rows as unknown as Record<string, any>[];
const get = (path: string, token?: string) => box.call("GET", `/api/v1${path}`, { token });
const PAY = "INSERT INTO payments (ticket_id, agent_id, employee_id, amount, tender, taken_at, till_day) VALUES (?, ?, ?, ?, 'cash', ?, '2026-11-20')";
/** A confirmed ticket to collect and/or deliver (straight into the database: these tests are about counting; what was paid as a payment row). */
async function ticket(o: {
  agent: number;
  employee: number;
  customer: { id: number; address_id: number };
  pickup?: string;
  delivery?: string;
  total?: number;
  paid?: number;
  confirmed?: boolean;
  comment?: string;
}) {
  const [r] = await rows(
    `INSERT INTO tickets (agent_id, employee_id, customer_id, pickup_date, delivery_date, pickup_from_client, delivery_to_client, state, total, pickup_address_id, delivery_address_id, confirmed_at, pickup_comment)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'AWAITING PICKUP', ?, ?, ?, ?, ?) RETURNING id`,
    [
      o.agent,
      o.employee,
      o.customer.id,
      o.pickup ?? null,
      o.delivery ?? null,
      o.pickup ? 1 : 0,
      o.delivery ? 1 : 0,
      o.total ?? 2500,
      o.pickup ? o.customer.address_id : null,
      o.delivery ? o.customer.address_id : null,
      o.confirmed === false ? null : "2026-11-20T10:00:00.000Z",
      o.comment ?? "",
    ],
  );
  const [g] = await rows("SELECT id FROM garment_sub_categories LIMIT 1");
  await rows("INSERT INTO ticket_sub_categories (ticket_id, garment_sub_category_id, description, quantity) VALUES (?, ?, 'Suit', 2)", [r!.id, g!.id]);
  if (o.paid) await rows(PAY, [r!.id, o.agent, o.employee, o.paid, "2026-11-20T10:00:00.000Z"]);
  return r!.id as number;
}

beforeAll(async () => {
  box = await testBox({ demo: true });
  const hqAgent = await box.agentToken();
  const bk = await box.agentToken("birkirkara", "shop-demo-2026");
  const mosta = await box.agentToken("mosta", "shop-demo-2026");
  t.hqAdmin = await box.employeeToken(ADMIN.pin, hqAgent);
  t.hqManager = await box.employeeToken("2222", hqAgent);
  t.hqEmployee = await box.employeeToken("3333", hqAgent);
  t.hqDriver = await box.employeeToken("4444", hqAgent);
  t.bkAdmin = await box.employeeToken("5555", bk);
  t.bkClerk = await box.employeeToken("6666", bk);
  t.mostaManager = await box.employeeToken("7777", mosta);
  t.mostaDriver = await box.employeeToken("8888", mosta);
  t.agentOnly = bk;
  loc = Object.fromEntries((await rows("SELECT id, name FROM localities")).map((l) => [l.name, Number(l.id)]));
  const agentId = async (user: string) => Number((await rows("SELECT id FROM agents WHERE user_name = ?", [user]))[0]!.id);
  const emp = async (name: string) => Number((await rows("SELECT id FROM employees WHERE full_name = ?", [name]))[0]!.id);
  ids = {
    hq: await agentId(ADMIN.user),
    bk: await agentId("birkirkara"),
    mosta: await agentId("mosta"),
    hqAdmin: Number((await rows("SELECT id FROM employees WHERE role = 'admin' AND hq = 1 ORDER BY id LIMIT 1"))[0]!.id),
    bkClerk: await emp("Luke Grech"),
    mostaManager: await emp("Sarah Azzopardi"),
    hqDriver: await emp("Mark Farrugia"),
    mostaDriver: await emp("Daniel Micallef"),
  };
  const customerIn = async (agent: number, locality: string) => {
    const [c] = await rows(
      "SELECT c.id, c.address_id FROM customers c JOIN addresses a ON a.id = c.address_id WHERE c.agent_id = ? AND a.locality_id = ? ORDER BY c.id LIMIT 1",
      [agent, loc[locality]!],
    );
    return { id: Number(c!.id), address_id: Number(c!.address_id) };
  };
  bkCustomer = await customerIn(ids.bk, "Birkirkara");
  mostaCustomer = await customerIn(ids.mosta, "Mosta");
});
afterAll(() => box.close());

describe("workload configurations (/configurations/)", () => {
  test("admins read them, every shop; other roles are refused", async () => {
    const list = await get("/configurations/", t.bkAdmin);
    expect(list.status).toBe(200);
    expect(list.json.data.length).toBe(24);
    expect(list.json.data[0]).toMatchObject({ month: "JANUARY", amounts: expect.stringMatching(/^(\d+,){6}\d+$/) });
    expect(list.json.data[0].per_day).toHaveLength(7);
    expect((await get(`/configurations/${list.json.data[0].id}`, t.hqAdmin)).json.data).toEqual(list.json.data[0]);
    for (const who of ["hqManager", "bkClerk", "mostaDriver"]) expect((await get("/configurations/", t[who])).status).toBe(403);
    expect((await get("/configurations/", t.agentOnly)).status).toBe(401);
  });

  test("HQ staff create one per month and action; negatives become 0; a shop admin may not", async () => {
    const [a] = await rows("SELECT id FROM actions WHERE name = 'Pressing'");
    const body = { month: "march", action_id: Number(a!.id), amounts: [5, -3, 10.4, 0, 7, 7, 2] };
    const refused = await box.call("POST", "/api/v1/configurations/", { token: t.bkAdmin, body });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toContain("head-quarters");
    const made = await box.call("POST", "/api/v1/configurations/", { token: t.hqAdmin, body });
    expect(made.status).toBe(200);
    expect(made.json.data).toMatchObject({ month: "MARCH", action: "Pressing", amounts: "5,0,10,0,7,7,2", per_day: [5, 0, 10, 0, 7, 7, 2] });
    const dup = await box.call("POST", "/api/v1/configurations/", { token: t.hqAdmin, body: { ...body, amounts: "1,1,1,1,1,1,1" } });
    expect(dup.status).toBe(409);
    expect(dup.json.message).toContain("MARCH already has a configuration");
    // Text amounts (spec §3), updated; moving it onto another month's existing one is a 409 too.
    const upd = await box.call("PUT", `/api/v1/configurations/${made.json.data.id}`, { token: t.hqAdmin, body: { amounts: "1, 2,3,4,5,6,-7" } });
    expect(upd.json.data.amounts).toBe("1,2,3,4,5,6,0");
    const [dc] = await rows("SELECT id FROM actions WHERE name = 'Dry Cleaning'");
    expect((await box.call("PUT", `/api/v1/configurations/${made.json.data.id}`, { token: t.hqAdmin, body: { action_id: Number(dc!.id) } })).status).toBe(409);
    expect((await box.call("PUT", `/api/v1/configurations/${made.json.data.id}`, { token: t.bkAdmin, body: { amounts: "0,0,0,0,0,0,0" } })).status).toBe(403);
    const audit = await rows("SELECT action FROM audit_log WHERE entity = 'configuration' AND entity_id = ? ORDER BY id", [made.json.data.id]);
    expect(audit.map((r) => r.action)).toEqual(["create", "update"]);
    expect((await box.call("DELETE", `/api/v1/configurations/${made.json.data.id}`, { token: t.bkAdmin })).status).toBe(403);
    expect((await box.call("DELETE", `/api/v1/configurations/${made.json.data.id}`, { token: t.hqAdmin })).status).toBe(200);
    expect((await get(`/configurations/${made.json.data.id}`, t.hqAdmin)).status).toBe(404);
    expect((await box.call("DELETE", "/api/v1/configurations/0", { token: t.hqAdmin })).status).toBe(404);
  });

  test("bad input answers 422 naming the field", async () => {
    const [a] = await rows("SELECT id FROM actions LIMIT 1");
    const bad = async (body: unknown) => box.call("POST", "/api/v1/configurations/", { token: t.hqAdmin, body });
    expect((await bad({ month: "SMARCH", action_id: a!.id, amounts: [0, 0, 0, 0, 0, 0, 0] })).json.message).toContain("month");
    expect((await bad({ month: "MAY", action_id: a!.id, amounts: [1, 2, 3] })).json.message).toContain("amounts");
    expect((await bad({ month: "MAY", action_id: a!.id, amounts: "1,2,x,4,5,6,7" })).json.message).toContain("amounts: must be seven numbers");
    const unknown = await bad({ month: "MAY", action_id: 999999, amounts: [0, 0, 0, 0, 0, 0, 0] });
    expect(unknown.status).toBe(422);
    expect(unknown.json.message).toBe("action_id: no such action");
  });
});

describe("pickup/delivery settings (/pickupDeliveries/)", () => {
  test("admins read them; only HQ staff replace them, all at once", async () => {
    const before = await get("/pickupDeliveries/", t.bkAdmin);
    expect(before.status).toBe(200);
    expect(before.json.data).toHaveLength(12);
    expect(before.json.data[0].localities).toMatch(/^\d+(;\d+)*$/);
    expect((await get("/pickupDeliveries/", t.bkClerk)).status).toBe(403);
    expect((await box.call("POST", "/api/v1/pickupDeliveries/", { token: t.bkAdmin, body: [] })).status).toBe(403);
  });

  test("unknown localities and bad fields answer 4xx and change nothing", async () => {
    const post = (body: unknown) => box.call("POST", "/api/v1/pickupDeliveries/", { token: t.hqAdmin, body });
    const unknown = await post([{ season: "PEAK", day_of_week: 1, quantity: 5, localities: `${loc.Mosta};99999` }]);
    expect(unknown.status).toBe(422);
    expect(unknown.json.message).toBe("localities: unknown locality id 99999");
    expect((await post([{ season: "SUMMER", day_of_week: 1, quantity: 5, localities: "1" }])).json.message).toContain("season");
    expect((await post([{ season: "PEAK", day_of_week: 7, quantity: 5, localities: "1" }])).json.message).toContain("day_of_week");
    expect((await post([{ season: "PEAK", from: "13-01", day_of_week: 1, quantity: 5, localities: "1" }])).json.message).toContain("from");
    expect((await post([{ season: "PEAK", day_of_week: 1, quantity: 5, localities: "1;abc" }])).json.message).toContain("localities");
    expect((await post({ season: "PEAK" })).status).toBe(422);
    expect((await get("/pickupDeliveries/", t.hqAdmin)).json.data).toHaveLength(12);
  });
});

describe("the scheduler's week (/statistics/schedule/week/{week}/year/{year})", () => {
  test("HQ admins and HQ drivers only", async () => {
    expect((await get("/statistics/schedule/week/49/year/2026", t.hqAdmin)).status).toBe(200);
    expect((await get("/statistics/schedule/week/49/year/2026", t.hqDriver)).status).toBe(200);
    for (const who of ["hqManager", "hqEmployee", "bkAdmin", "mostaDriver", "mostaManager"])
      expect((await get("/statistics/schedule/week/49/year/2026", t[who])).status).toBe(403);
  });

  test("bad weeks and years answer 422", async () => {
    for (const [w, y] of [
      ["0", "2026"],
      ["54", "2026"],
      ["53", "2026"], // 2026 has 52 weeks
      ["1", "x"],
      ["x", "2026"],
      ["-1", "2026"],
      ["1.5", "2026"],
    ]) {
      const r = await get(`/statistics/schedule/week/${w}/year/${y}`, t.hqAdmin);
      expect(r.status).toBe(422);
      expect(r.json.message).toMatch(/week|year/);
    }
    expect((await get("/statistics/schedule/week/53/year/2022", t.hqAdmin)).status).toBe(200);
  });

  test("each day: capacity, booked pickups and deliveries per locality, colours, simple tickets", async () => {
    const base = await ticket({ agent: ids.bk, employee: ids.bkClerk, customer: bkCustomer, pickup: MONDAY, total: 4250, paid: 1000, comment: "Gate code 12" });
    for (let i = 0; i < 10; i++) await ticket({ agent: ids.bk, employee: ids.bkClerk, customer: bkCustomer, delivery: MONDAY });
    await ticket({ agent: ids.bk, employee: ids.bkClerk, customer: bkCustomer, pickup: MONDAY, confirmed: false }); // a draft holds no room
    await ticket({ agent: ids.mosta, employee: ids.mostaManager, customer: mostaCustomer, pickup: TUESDAY });
    const week = (await get("/statistics/schedule/week/49/year/2026", t.hqAdmin)).json.data;
    expect(week.map((d: { date: string }) => d.date)).toEqual([
      "2026-11-29",
      "2026-11-30",
      "2026-12-01",
      "2026-12-02",
      "2026-12-03",
      "2026-12-04",
      "2026-12-05",
    ]);
    expect(week.map((d: { day_of_week: number }) => d.day_of_week)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const monday = week[1];
    expect(monday).toMatchObject({ capacity: 8 * 20, assigned_pickups: 1, assigned_deliveries: 10, colour: "green", ticket_count: 11 });
    const bkara = monday.localities.find((l: { name: string }) => l.name === "Birkirkara");
    expect(bkara).toEqual({ id: loc.Birkirkara, name: "Birkirkara", capacity: 20, assigned_pickups: 1, assigned_deliveries: 10, colour: "orange" });
    expect(monday.tickets).toHaveLength(10); // spec §9 default limit
    const first = monday.tickets.find((x: { id: number }) => x.id === base);
    expect(first).toMatchObject({
      customer_id: bkCustomer.id,
      state: "AWAITING PICKUP",
      pickup_date: MONDAY,
      pickup_comment: "Gate code 12",
      agent_name: expect.any(String),
      total: 42.5,
      total_paid: 10,
      detail: "2 × Suit",
    });
    expect(first.pickup_address.locality).toBe("Birkirkara");
    expect(week[0]).toMatchObject({ capacity: 0, colour: "red", tickets: [] }); // Sunday: no round
    expect(week[2]).toMatchObject({ assigned_pickups: 1, assigned_deliveries: 0 });

    const all = (await get(`/statistics/schedule/week/49/year/2026?limit=9999999999&date=${MONDAY}&type=deliveries`, t.hqAdmin)).json.data;
    expect(all[1].tickets).toHaveLength(10);
    expect(all[1].ticket_count).toBe(10);
    expect(all[2].tickets).toEqual([]);
    expect((await get("/statistics/schedule/week/49/year/2026?limit=-1", t.hqAdmin)).status).toBe(422);
  });

  test("a shop's HQ-flagged admin does not reach the scheduler (spec §2: users of the head-quarters agent)", async () => {
    await rows("UPDATE employees SET hq = 1 WHERE full_name = 'Claire Zammit'");
    try {
      const r = await get("/statistics/schedule/week/49/year/2026", t.bkAdmin);
      expect(r.status).toBe(403);
      expect(r.json.message).toBe("Only the head-quarters agent may do this");
    } finally {
      await rows("UPDATE employees SET hq = 0 WHERE full_name = 'Claire Zammit'");
    }
  });
});

describe("plant workload", () => {
  let dcId: number;
  beforeAll(async () => {
    dcId = Number((await rows("SELECT id FROM actions WHERE name = 'Dry Cleaning'"))[0]!.id);
    // Three items of 2 processed on Monday 30 November (Malta day, 09:00 local), one of Mosta's.
    const mk = async (agent: number, employee: number, customer: typeof bkCustomer, at: string) => {
      const tid = await ticket({ agent, employee, customer });
      const [item] = await rows("SELECT id FROM ticket_sub_categories WHERE ticket_id = ?", [tid]);
      await rows("UPDATE ticket_sub_categories SET process_date = ?, detail = 'rush' WHERE id = ?", [at, item!.id]);
      await rows("INSERT INTO ticket_sub_category_actions (ticket_sub_category_id, action_id, name, quantity, price) VALUES (?, ?, 'Dry Cleaning', 1, 500)", [
        item!.id,
        dcId,
      ]);
      return Number(item!.id);
    };
    await mk(ids.bk, ids.bkClerk, bkCustomer, "2026-11-30T08:00:00.000Z");
    await mk(ids.bk, ids.bkClerk, bkCustomer, "2026-11-29T23:30:00.000Z"); // 00:30 Monday in Malta
    await mk(ids.mosta, ids.mostaManager, mostaCustomer, "2026-11-30T12:00:00.000Z");
    await mk(ids.bk, ids.bkClerk, bkCustomer, "2026-11-29T22:30:00.000Z"); // still Sunday in Malta
  });

  test("/statistics/actionWorkLoad: per action and day, against the month's configuration; lists are the shop's", async () => {
    const hq = (await get("/statistics/actionWorkLoad/week/49/year/2026", t.hqAdmin)).json.data;
    const dc = hq.find((a: { action_id: number }) => a.action_id === dcId);
    expect(dc.days[1]).toMatchObject({ date: MONDAY, day_of_week: 1, capacity: 40, assigned: 6, colour: "green" });
    expect(dc.days[0]).toMatchObject({ capacity: 0, assigned: 2, colour: "red" });
    expect(dc.days[1].ticket_sub_categories).toHaveLength(3);
    expect(dc.days[1].ticket_sub_categories[0]).toMatchObject({ Detail: "rush", Description: "Suit" });
    const december = dc.days[2];
    expect(december).toMatchObject({ date: TUESDAY, capacity: 50, assigned: 0 }); // December is a busy month in the demo

    const shop = (await get("/statistics/actionWorkLoad/week/49/year/2026", t.bkAdmin)).json.data.find((a: { action_id: number }) => a.action_id === dcId);
    expect(shop.days[1].assigned).toBe(6); // the plant's load is every shop's
    expect(shop.days[1].ticket_sub_categories).toHaveLength(2); // Mosta's item is not listed
    for (const who of ["bkClerk", "mostaManager", "hqDriver"]) expect((await get("/statistics/actionWorkLoad/week/49/year/2026", t[who])).status).toBe(403);
    expect((await get("/statistics/actionWorkLoad/week/54/year/2026", t.hqAdmin)).status).toBe(422);
    expect((await get("/statistics/actionWorkLoad/week/0/year/x", t.hqAdmin)).status).toBe(422);
  });

  test("/weeklyStats/thisWeek: every role; the current Malta week's rows (month, action, day, left, accepted, total)", async () => {
    box.clock.set("2026-11-30T10:00:00Z");
    try {
      // Fresh logins at the moved clock (the others would be idle for a week).
      const clerk = await box.employeeToken("6666", await box.agentToken("birkirkara", "shop-demo-2026"));
      const driver = await box.employeeToken("8888", await box.agentToken("mosta", "shop-demo-2026"));
      for (const token of [clerk, driver]) expect((await get("/weeklyStats/thisWeek", token)).status).toBe(200);
      const rowsOut = (await get(`/weeklyStats/thisWeek?actions=${dcId}`, clerk)).json.data;
      expect(rowsOut).toHaveLength(7);
      expect(rowsOut[1]).toEqual({
        month: "NOVEMBER",
        action_id: dcId,
        action: "Dry Cleaning",
        date: MONDAY,
        day_of_week: 1,
        amount_left: 34,
        amount_accepted: 6,
        total_amount: 40,
        colour: "green",
      });
      expect(rowsOut[2].month).toBe("DECEMBER");
      expect((await get("/weeklyStats/thisWeek?actions=x", clerk)).status).toBe(422);
      expect((await get("/weeklyStats/thisWeek", t.agentOnly)).status).toBe(401);
    } finally {
      box.clock.set("2026-11-22T09:00:00Z");
    }
  });
});

describe("availability and the date proposal (/schedule/availability)", () => {
  test("every role sees a locality's room per day; the proposal skips full days and days the plant cannot take", async () => {
    const [naxxar] = [loc.Naxxar!];
    // Tuesday 1 December: Naxxar takes 20; book them all.
    const naxxarCustomer = (
      await rows("SELECT c.id, c.address_id FROM customers c JOIN addresses a ON a.id = c.address_id WHERE a.locality_id = ? LIMIT 1", [naxxar])
    )[0];
    const cust = { id: Number(naxxarCustomer!.id), address_id: Number(naxxarCustomer!.address_id) };
    // Booked by Birkirkara: the van's room is every shop's.
    for (let i = 0; i < 20; i++) await ticket({ agent: ids.bk, employee: ids.bkClerk, customer: cust, pickup: TUESDAY });
    const r = await get(`/schedule/availability?locality=${naxxar}&from=${MONDAY}&days=7&default_date=${MONDAY}`, t.bkClerk);
    expect(r.status).toBe(200);
    const d = r.json.data;
    expect(d.days.map((x: { capacity: number }) => x.capacity)).toEqual([0, 20, 0, 0, 20, 0, 0]);
    expect(d.days[1]).toMatchObject({ date: TUESDAY, assigned: 20, left: 0, colour: "red", ok: false });
    expect(d.proposed).toBe("2026-12-04"); // Friday, the next north round

    // With an action the plant takes none of on Fridays, the next Tuesday is proposed.
    const [a] = await rows("SELECT id FROM actions WHERE name = 'Carpets'");
    await rows("INSERT INTO configurations (month, action_id, amounts) VALUES ('DECEMBER', ?, '5,5,5,5,5,0,5')", [a!.id]);
    const withPlant = (await get(`/schedule/availability?locality=${naxxar}&from=${MONDAY}&days=7&default_date=${MONDAY}&actions=${a!.id}`, t.bkClerk)).json
      .data;
    expect(withPlant.days[4].plant).toEqual([{ action_id: Number(a!.id), capacity: 0, assigned: 0, left: 0 }]);
    expect(withPlant.proposed).toBe("2026-12-08");
    // A default date past the listed days is searched further ahead.
    expect((await get(`/schedule/availability?locality=${naxxar}&from=${MONDAY}&days=1&default_date=2026-12-20`, t.bkClerk)).json.data.proposed).toBe(
      "2026-12-22",
    );
  });

  test("bad input answers 4xx", async () => {
    expect((await get("/schedule/availability?locality=999999", t.bkClerk)).status).toBe(404);
    expect((await get("/schedule/availability", t.bkClerk)).status).toBe(422);
    expect((await get(`/schedule/availability?locality=${loc.Mosta}&from=2026-02-30`, t.bkClerk)).status).toBe(422);
    expect((await get(`/schedule/availability?locality=${loc.Mosta}&days=500`, t.bkClerk)).status).toBe(422);
    expect((await get(`/schedule/availability?locality=${loc.Mosta}`, t.agentOnly)).status).toBe(401);
  });
});

describe("a driver's run (/schedule/run)", () => {
  test("the HQ driver's stops in his localities, ordered by locality and street, with what to collect and what is due", async () => {
    const r = await get(`/schedule/run?date=${MONDAY}`, t.hqDriver);
    expect(r.status).toBe(200);
    const run = r.json.data;
    expect(run.driver).toMatchObject({ id: ids.hqDriver, full_name: "Mark Farrugia" });
    expect(run.stops.length).toBe(11);
    const pickup = run.stops.find((s: { kind: string }) => s.kind === "pickup");
    expect(pickup).toMatchObject({
      locality: "Birkirkara",
      comments: "Gate code 12",
      amount_due: 32.5,
      customer_id: bkCustomer.id,
      items: [{ description: "Suit", quantity: 2 }],
    });
    expect(pickup.address).toContain("Birkirkara");
    const keys = run.stops.map((s: { locality: string; street: string }) => `${s.locality}|${s.street}`);
    expect(keys).toEqual([...keys].sort((a: string, b: string) => a.localeCompare(b)));
    // Tuesday's Mosta pickup is not his (not his localities).
    expect((await get(`/schedule/run?date=${TUESDAY}`, t.hqDriver)).json.data.stops.some((s: { locality: string }) => s.locality === "Mosta")).toBe(false);
  });

  test("a shop's driver carries that shop's tickets; drivers see only their own run; managers their shop's drivers", async () => {
    const own = (await get(`/schedule/run?date=${TUESDAY}`, t.mostaDriver)).json.data;
    expect(own.stops.map((s: { locality: string }) => s.locality)).toEqual(["Mosta"]); // Naxxar's bookings are another shop's
    expect((await get(`/schedule/run?date=${TUESDAY}&driver=${ids.hqDriver}`, t.mostaDriver)).status).toBe(403);
    expect((await get(`/schedule/run?date=${TUESDAY}&driver=${ids.hqDriver}`, t.mostaManager)).status).toBe(404);
    expect((await get(`/schedule/run?date=${TUESDAY}&driver=${ids.mostaDriver}`, t.mostaManager)).json.data.stops).toHaveLength(1);
    expect((await get(`/schedule/run?date=${TUESDAY}&driver=${ids.mostaDriver}`, t.hqAdmin)).status).toBe(200);
    expect((await get(`/schedule/run?date=${TUESDAY}`, t.bkClerk)).status).toBe(403);
    expect((await get("/schedule/run?date=tomorrow", t.hqDriver)).status).toBe(422);
  });

  test("the run sheet is a PDF", async () => {
    const res = await box.app.handle(
      new Request(`http://localhost/api/v1/schedule/run/pdf?date=${MONDAY}&preview=true`, { headers: { authorization: `token ${t.hqDriver}` } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toContain("inline");
    expect(new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
  });
});
