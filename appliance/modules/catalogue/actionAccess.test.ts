import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import type { EmployeeCaller } from "../auth/caller";
import { assertActionsAllowed, parseActionIds } from "./actionAccess";

/** Spec §6 can_see_action: the actions a shop's staff see at the counter. */
describe("parseActionIds", () => {
  test("null or blank: every action; ids by ',', ';' or spaces; other parts ignored", () => {
    expect(parseActionIds(null)).toBeNull();
    expect(parseActionIds(undefined)).toBeNull();
    expect(parseActionIds("  ")).toBeNull();
    expect(parseActionIds("1,2,3")).toEqual([1, 2, 3]);
    expect(parseActionIds(" 4; 5 ,6  7")).toEqual([4, 5, 6, 7]);
    expect(parseActionIds("1,x,0,-2,2.5,3")).toEqual([1, 3]);
    expect(parseActionIds("none")).toEqual([]);
  });
});

let box: TestBox;
let hq: string;
let bkAdmin: string;
let bkClerk: string;
let mosta: string;
let shopId: number;
let all: { id: number; name: string }[];
beforeAll(async () => {
  box = await testBox({ demo: true });
  hq = await box.employeeToken(ADMIN.pin);
  const bkara = await box.agentToken("birkirkara", "shop-demo-2026");
  bkAdmin = await box.employeeToken("5555", bkara);
  bkClerk = await box.employeeToken("6666", bkara);
  mosta = await box.employeeToken("7777", await box.agentToken("mosta", "shop-demo-2026"));
  shopId = (await box.call("GET", "/api/v1/agents/", { token: hq })).json.data.find((a: { user_name: string }) => a.user_name === "birkirkara").id;
  all = (await box.call("GET", "/api/v1/actions/", { token: bkClerk })).json.data;
});
afterAll(() => box.close());

const limit = async (can_see_action: string | null) =>
  expect((await box.call("PUT", `/api/v1/agents/${shopId}`, { token: hq, body: { can_see_action } })).status).toBe(200);
const names = async (token: string) => ((await box.call("GET", "/api/v1/actions/", { token })).json.data as { name: string }[]).map((a) => a.name);

test("a limited shop's staff list only its actions; a hidden one answers 404; HQ and other shops see every action", async () => {
  const dc = all.find((a) => a.name === "Dry Cleaning")!;
  const laundry = all.find((a) => a.name === "Laundry")!;
  const pressing = all.find((a) => a.name === "Pressing")!;
  expect(all.length).toBeGreaterThan(2);
  await limit(`${dc.id},${laundry.id}`);
  expect(await names(bkClerk)).toEqual(["Dry Cleaning", "Laundry"]);
  expect(await names(bkAdmin)).toEqual(["Dry Cleaning", "Laundry"]);
  expect((await box.call("GET", `/api/v1/actions/${pressing.id}`, { token: bkClerk })).status).toBe(404);
  expect((await box.call("GET", `/api/v1/actions/${dc.id}`, { token: bkClerk })).json.data.name).toBe("Dry Cleaning");
  expect(await names(mosta)).toEqual(all.map((a) => a.name));
  expect(await names(hq)).toContain("Pressing");
  expect((await box.call("GET", `/api/v1/actions/${pressing.id}`, { token: hq })).status).toBe(200);

  await limit("");
  expect(await names(bkClerk)).toEqual(all.map((a) => a.name));
  await limit(null);
  expect(await names(bkClerk)).toEqual(all.map((a) => a.name));
});

test("assertActionsAllowed refuses a hidden action as unknown; HQ staff and unlimited shops pass", async () => {
  const [a, b] = all;
  await limit(`${a!.id}`);
  const db = box.database.db;
  const caller = (agent: { id: number; is_hq: boolean }, hqFlag = false): EmployeeCaller => ({
    kind: "employee",
    jti: "t",
    agent: { ...agent, name: "x" },
    employee: { id: 1, full_name: "x", role: "employee", hq: hqFlag },
  });
  const shop = caller({ id: shopId, is_hq: false });
  await assertActionsAllowed(db, shop, [a!.id]);
  await expect(assertActionsAllowed(db, shop, [a!.id, b!.id])).rejects.toMatchObject({ message: "action_id: no such action" });
  await assertActionsAllowed(db, caller({ id: shopId, is_hq: false }, true), [b!.id]);
  await assertActionsAllowed(db, caller({ id: 1, is_hq: true }), [b!.id]);
  await limit(null);
  await assertActionsAllowed(db, shop, [b!.id]);
});

test("through the API, a limited shop cannot add a hidden action to an item, nor gets a hidden default", async () => {
  const call = async (method: string, path: string, body?: unknown) => box.call(method, `/api/v1${path}`, { token: bkClerk, body });
  const customers = (await call("GET", "/customers/?limit=1")).json.data;
  const customer = (Array.isArray(customers) ? customers : customers.data)[0];
  const ticket = (await call("POST", "/tickets/", { customer_id: customer.id })).json.data;
  // A garment whose category has a default action, from the demo catalogue.
  const cats = (await box.call("GET", "/api/v1/garmentCategories/", { token: hq })).json.data as { id: number; default_action_id: number | null }[];
  const cat = cats.find((c) => c.default_action_id)!;
  const subs = (await box.call("GET", `/api/v1/garmentSubCategories/?category=${cat.id}`, { token: hq })).json.data as {
    id: number;
    garment_category_id: number;
  }[];
  const garment = subs.find((s) => s.garment_category_id === cat.id)!;
  const other = all.find((a) => a.id !== cat.default_action_id)!;

  await limit(`${other.id}`);
  const [item] = (await call("POST", "/ticketSubCategory/", { ticket_id: ticket.id, garment_sub_category_id: garment.id })).json.data;
  const added = (await call("GET", `/ticketSubCategory/${item.id}`)).json.data;
  expect(added.actions.map((a: { actionID: number }) => a.actionID)).toEqual([]);
  const hidden = await call("POST", "/ticketSubCategoryActions/", { ticket_sub_category_id: item.id, action_id: cat.default_action_id });
  expect(hidden.status).toBe(422);
  expect(hidden.json.message).toContain("action_id: no such action");
  expect(
    (await call("POST", "/ticketSubCategory/", { ticket_id: ticket.id, garment_sub_category_id: garment.id, actions: [cat.default_action_id] })).status,
  ).toBe(422);
  // The control: the shop's own action goes on.
  expect((await call("POST", "/ticketSubCategoryActions/", { ticket_sub_category_id: item.id, action_id: other.id })).status).toBe(200);
  await limit(null);
  const [withDefault] = (await call("POST", "/ticketSubCategory/", { ticket_id: ticket.id, garment_sub_category_id: garment.id })).json.data;
  expect((await call("GET", `/ticketSubCategory/${withDefault.id}`)).json.data.actions.map((a: { actionID: number }) => a.actionID)).toEqual([
    cat.default_action_id,
  ]);
});
