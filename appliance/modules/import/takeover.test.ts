// Issue 32: what the old system says cannot take over the box. A stand-in on loopback passes
// the demo box's answers through and adds what a hostile server (or anyone on its plain-HTTP
// path) would: a shop made head office, HQ flags and an admin role for employees, customers
// numbered near 2^53 or far above the others, and a 500 instead of a 404 for every ticket id
// past the last. It records every path asked for, held against the spec's GET routes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import type { TestBox } from "../../test/harness";
import { ID_CEILING } from "./ids";
import type { ImportReport } from "./importer";
import { ADMIN, importInto, type Served, serve, testBox } from "./testkit";

let src: TestBox;
let served: Served;
let stand: ReturnType<typeof Bun.serve>;
const asked: { method: string; path: string }[] = [];
/** The source's highest ticket id: past it, the stand-in answers 500 where the source says 404. */
let lastTicket = 0;
/** Turned on for the second run: a shop employee of the source becomes an admin with the HQ flag. */
let promoteOnSecondRun = false;
let luke = 0;
let dst: TestBox;
let first: ImportReport;
let second: ImportReport;

const HUGE = 9007199254740990;
const FAR = 50_000_000;

beforeAll(async () => {
  src = await testBox({ demo: true });
  served = serve(src);
  lastTicket = (await src.database.db.all<{ m: number }>(sql`SELECT max(id) AS m FROM tickets`))[0]!.m;
  luke = (await src.database.db.all<{ id: number }>(sql`SELECT id FROM employees WHERE full_name = 'Luke Grech'`))[0]!.id;
  stand = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      const path = u.pathname.replace("/api/v1", "");
      asked.push({ method: req.method, path });
      const res = await fetch(`${served.url}${u.pathname}${u.search}`, {
        method: req.method,
        headers: req.headers,
        body: req.method === "GET" ? undefined : await req.text(),
      });
      const ticket = /^\/tickets\/(\d+)$/.exec(path);
      if (ticket && Number(ticket[1]) > lastTicket) return new Response("Internal Server Error", { status: 500 });
      if (!res.ok) return res;
      const body = (await res.json()) as { success: boolean; data: any };
      if (path === "/agents/") for (const a of body.data) if (a.user_name === "birkirkara") a.is_hq = true;
      if (path === "/employees/")
        for (const e of body.data) {
          if (e.full_name === "Anna Vella") e.hq = true; // an HQ employee made an area manager
          if (e.id === luke && promoteOnSecondRun) Object.assign(e, { role: "admin", hq: true });
        }
      if (path === "/customers/" && u.searchParams.get("offset") === "0")
        body.data.push(
          { id: HUGE, agent_id: 2, full_name: "Huge Id", mobile: "79000002", preferences: [] },
          { id: FAR, agent_id: 2, full_name: "Far Id", mobile: "79000003", preferences: [] },
          { id: ID_CEILING + 1, agent_id: 2, full_name: "Past Ceiling", mobile: "79000004", preferences: [] },
        );
      if (path === "/tickets/" && u.searchParams.get("offset") === "0") body.data[0].state = "AT THE TAILOR";
      return Response.json(body);
    },
  });
  dst = await testBox({});
  const url = `http://127.0.0.1:${stand.port}`;
  first = await importInto(dst, url);
  promoteOnSecondRun = true;
  second = await importInto(dst, url);
}, 180_000);
afterAll(() => {
  stand.stop(true);
  served.stop();
  dst.close();
  src.close();
});

const one = async <T>(q: ReturnType<typeof sql>) => (await dst.database.db.all<T>(q))[0]!;

test("no HQ flag is taken from the old system, and the report names each one it did not take", async () => {
  const bkara = await one<{ id: number; is_hq: number }>(sql`SELECT id, is_hq FROM agents WHERE user_name = 'birkirkara'`);
  expect(bkara.is_hq).toBe(0);
  expect(first.skipped).toContainEqual({ kind: "agent", id: bkara.id, field: "is_hq", source: true, kept: false });
  // The box's own head office stays one (the source also says so: nothing to skip there).
  expect((await one<{ n: number }>(sql`SELECT count(*) AS n FROM agents WHERE is_hq = 1`)).n).toBe(1);

  for (const name of ["Anna Vella", "Maria Camilleri", "Mark Farrugia"]) {
    const e = await one<{ id: number; hq: number }>(sql`SELECT id, hq FROM employees WHERE full_name = ${name}`);
    expect(e.hq, name).toBe(0);
    expect(first.skipped, name).toContainEqual({ kind: "employee", id: e.id, field: "hq", source: true, kept: false });
  }
  // A new admin of the box's head office would be HQ staff: a manager at most, said in the report.
  const maria = await one<{ id: number; role: string }>(sql`SELECT id, role FROM employees WHERE full_name = 'Maria Camilleri'`);
  expect(maria.role).toBe("manager");
  expect(first.skipped).toContainEqual({ kind: "employee", id: maria.id, field: "role", source: "admin", kept: "manager" });
  // A shop's new admin is that shop's business.
  expect((await one<{ role: string }>(sql`SELECT role FROM employees WHERE full_name = 'Claire Zammit'`)).role).toBe("admin");
});

test("an employee already on the box is never raised above the role it has here", async () => {
  const e = await one<{ role: string; hq: number }>(sql`SELECT role, hq FROM employees WHERE id = ${luke}`);
  expect(e).toEqual({ role: "employee", hq: 0 });
  expect(second.kinds.employee!.changed).toBe(1);
  expect(second.skipped).toEqual([
    { kind: "employee", id: luke, field: "hq", source: true, kept: false },
    { kind: "employee", id: luke, field: "role", source: "admin", kept: "employee" },
  ]);
});

test("ids past what the box can go on numbering from, or far above the records seen, are refused with the reason", async () => {
  const why = (id: number) => first.refusals.find((r) => r.kind === "customer" && r.id === id)?.reason;
  expect(why(HUGE)).toContain(`customer id ${HUGE} is past the highest id this box takes`);
  expect(why(ID_CEILING + 1)).toContain("past the highest id this box takes");
  expect(why(FAR)).toMatch(/customer id 50000000 is far above the \d+ customer records seen/);
  expect((await one<{ n: number }>(sql`SELECT count(*) AS n FROM customers WHERE id >= ${FAR}`)).n).toBe(0);
  // The next customer a shop creates continues after the highest real one.
  const token = await dst.employeeToken(ADMIN.pin);
  const created = await dst.call("POST", "/api/v1/customers/", { token, body: { full_name: "Next Customer", mobile: "79000009" } });
  expect(created.status).toBe(200);
  const max = (await src.database.db.all<{ m: number }>(sql`SELECT max(id) AS m FROM customers`))[0]!.m;
  expect(created.json.data.id).toBe(max + 1);
  const after = await dst.call("POST", "/api/v1/customers/", { token, body: { full_name: "After That", mobile: "79000010" } });
  expect(after.json.data.id).toBe(max + 2);
});

test("a source that answers 500 for every ticket id past its last ends the tail probe, each error a miss", async () => {
  const past = asked.filter((a) => /^\/tickets\/\d+$/.test(a.path) && Number(a.path.split("/")[2]) > lastTicket);
  // Two runs; each: 24 misses in a row end it, asked 8 at a time (the batch holding the last
  // ticket may end with up to 7 misses already), each id tried 3 times (2 retries of a 5xx).
  expect(past.length).toBeGreaterThan(0);
  expect(past.length).toBeLessThanOrEqual(2 * (24 + 8) * 3);
  const said = first.refusals.find((r) => r.kind === "ticket" && r.id === null)?.reason ?? "";
  expect(said).toMatch(/^\d+ ticket ids above \d+ answered an error, not 404: taken as missing$/);
  // Every ticket of the source came all the same.
  const n = (await src.database.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM tickets`))[0]!.n;
  expect(first.kinds.ticket!.new).toBe(n);
});

/** Spec §7's GET routes ({id} any number, {date} a date); nothing else is asked of the old system. */
const SPEC_GETS = [
  "/logout/agent",
  "/customers/",
  "/customers",
  "/customers/byDeliveryDate/{date}",
  "/customers/{id}",
  "/localities/",
  "/streets/locality/{id}",
  "/address/",
  "/address/{id}",
  "/preferences/",
  "/customerPreferences/customers/{id}",
  "/agents/",
  "/agents/{id}",
  "/employees/",
  "/employees/{id}",
  "/garmentCategories/",
  "/garmentCategories/{id}",
  "/garmentSubCategories/",
  "/garmentSubCategories/{id}",
  "/garmentSubCategories/priceList",
  "/actions/",
  "/actions/{id}",
  "/actionGarmentSubCategories/",
  "/modifiers/",
  "/modifiers/{id}",
  "/configurations/",
  "/configurations/{id}",
  "/pickupDeliveries/",
  "/tickets/",
  "/tickets/{id}",
  "/tickets/children/{id}",
  "/tickets/customer/{id}",
  "/tickets/lastnonconfirmed/{id}",
  "/ticketSubCategory/express/",
  "/ticketSubCategory/{id}",
  "/ticketLogStates/{id}",
];
const specGet = new RegExp(`^(${SPEC_GETS.map((p) => p.replace("{id}", "\\d+").replace("{date}", "\\d{4}-\\d{2}-\\d{2}")).join("|")})$`);

test("the import asks the old system only the spec's GET routes (and its two logins)", () => {
  expect(asked.length).toBeGreaterThan(50);
  const gets = [...new Set(asked.filter((a) => a.method === "GET").map((a) => a.path))];
  expect(gets.filter((p) => !specGet.test(p))).toEqual([]);
  expect(gets).not.toContain("/ticketStates/");
  expect([...new Set(asked.filter((a) => a.method !== "GET").map((a) => `${a.method} ${a.path}`))].sort()).toEqual([
    "POST /login/agent",
    "POST /login/employee",
  ]);
});

test("ticket states come from the tickets: a state the box lacks is added, one it has is left alone", async () => {
  expect(first.kinds.ticket_state!.new).toBe(1);
  const tailor = await one<{ position: number; n: number }>(
    sql`SELECT position, (SELECT count(*) FROM ticket_states) AS n FROM ticket_states WHERE name = 'AT THE TAILOR'`,
  );
  expect(tailor.position).toBe(tailor.n); // after the box's own
  expect((await one<{ n: number }>(sql`SELECT count(*) AS n FROM tickets WHERE state = 'AT THE TAILOR'`)).n).toBe(1);
  expect(second.kinds.ticket_state!.new).toBe(0);
  // Every state a source ticket uses is a state here.
  const used = await src.database.db.all<{ state: string }>(sql`SELECT DISTINCT state FROM tickets UNION SELECT DISTINCT state FROM ticket_sub_categories`);
  const here = new Set((await dst.database.db.all<{ name: string }>(sql`SELECT name FROM ticket_states`)).map((s) => s.name));
  for (const u of used) expect(here.has(u.state), u.state).toBe(true);
});
