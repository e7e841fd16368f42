import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

/** Addresses carry no agent: a shop sees its customers', its tickets' and its own new ones; HQ all. */
let box: TestBox;
let hq: string;
let birkirkara: string;
let mosta: string;
beforeAll(async () => {
  box = await testBox({ demo: true });
  hq = await box.employeeToken(ADMIN.pin);
  birkirkara = await box.employeeToken("5555", await box.agentToken("birkirkara", "shop-demo-2026"));
  mosta = await box.employeeToken("7777", await box.agentToken("mosta", "shop-demo-2026"));
});
afterAll(() => box.close());

test("another shop's address answers 404 to reads and updates and is left out of lists; HQ sees it", async () => {
  const [locality] = (await box.call("GET", "/api/v1/localities/", { token: birkirkara })).json.data;
  const [street] = (await box.call("GET", `/api/v1/streets/locality/${locality.id}`, { token: birkirkara })).json.data ?? [];
  const created = await box.call("POST", "/api/v1/address/", { token: birkirkara, body: { number: "7", name: "Dar Ċikku", locality_id: locality.id, street_id: street.id } });
  expect(created.status).toBe(200);
  const id = created.json.data.id;
  expect((await box.call("GET", `/api/v1/address/${id}`, { token: birkirkara })).json.data.line).toContain("Dar Ċikku");
  expect((await box.call("GET", `/api/v1/address/${id}`, { token: mosta })).status).toBe(404);
  expect((await box.call("PUT", `/api/v1/address/${id}`, { token: mosta, body: { name: "Taken over" } })).status).toBe(404);
  expect((await box.call("GET", `/api/v1/address/?ids=${id}`, { token: mosta })).json.data).toEqual([]);
  expect((await box.call("GET", "/api/v1/address/", { token: mosta })).json.data.map((a: { id: number }) => a.id)).not.toContain(id);
  expect((await box.call("GET", `/api/v1/address/${id}`, { token: hq })).status).toBe(200);
  // Once a Mosta customer lives there, Mosta sees it too.
  await box.call("POST", "/api/v1/customers/", { token: mosta, body: { full_name: "Ċikku Borg", address_id: id } });
  expect((await box.call("GET", `/api/v1/address/${id}`, { token: mosta })).status).toBe(200);
});
