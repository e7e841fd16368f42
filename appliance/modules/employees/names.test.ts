import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

/** GET /employees/names: the State Logs employee filter, for every role that sees that screen. */
let box: TestBox;
let hq: string;
let bkAdmin: string;
let bkClerk: string;
let mostaManager: string;
let mostaDriver: string;
beforeAll(async () => {
  box = await testBox({ demo: true });
  hq = await box.employeeToken(ADMIN.pin);
  const bkara = await box.agentToken("birkirkara", "shop-demo-2026");
  bkAdmin = await box.employeeToken("5555", bkara);
  bkClerk = await box.employeeToken("6666", bkara);
  const mosta = await box.agentToken("mosta", "shop-demo-2026");
  mostaManager = await box.employeeToken("7777", mosta);
  mostaDriver = await box.employeeToken("8888", mosta);
});
afterAll(() => box.close());

const names = async (token: string) => {
  const r = await box.call("GET", "/api/v1/employees/names", { token });
  expect(r.status).toBe(200);
  return r.json.data as { id: number; full_name: string; agent: string }[];
};

test("an employee and a manager get their own shop's employees, id and name only", async () => {
  const clerk = await names(bkClerk);
  expect(clerk.map((e) => e.full_name)).toEqual(["Claire Zammit", "Luke Grech"].sort());
  expect(Object.keys(clerk[0]!).sort()).toEqual(["agent", "agent_id", "full_name", "id"]);
  expect(new Set(clerk.map((e) => e.agent))).toEqual(new Set(["Ironbox Birkirkara"]));
  expect((await names(mostaManager)).map((e) => e.full_name)).toEqual(["Daniel Micallef", "Sarah Azzopardi"]);
  expect((await names(bkAdmin)).map((e) => e.full_name)).toEqual(clerk.map((e) => e.full_name));
});

test("HQ gets every shop's employees; a driver (no State Logs) and an agent token alone are refused", async () => {
  const all = (await names(hq)).map((e) => e.full_name);
  for (const n of ["Claire Zammit", "Luke Grech", "Sarah Azzopardi", "Daniel Micallef", "Joseph Borg"]) expect(all).toContain(n);
  expect((await box.call("GET", "/api/v1/employees/names", { token: mostaDriver })).status).toBe(403);
  expect((await box.call("GET", "/api/v1/employees/names", { token: await box.agentToken("mosta", "shop-demo-2026") })).status).toBe(401);
  // The full records stay admin-only.
  expect((await box.call("GET", "/api/v1/employees/", { token: bkClerk })).status).toBe(403);
});

test("a disabled employee stays in the filter: their state changes are still in the logs", async () => {
  const luke = (await names(bkAdmin)).find((e) => e.full_name === "Luke Grech")!;
  expect((await box.call("PUT", `/api/v1/employees/${luke.id}`, { token: bkAdmin, body: { enable_login: false } })).status).toBe(200);
  expect((await names(bkAdmin)).map((e) => e.id)).toContain(luke.id);
});
