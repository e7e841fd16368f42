import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

let box: TestBox;
let admin: string;
beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin);
});
afterAll(() => box.close());

test("create, update, toggle localities and delete an employee; the PIN never comes back", async () => {
  const c = box.database.client;
  const l1 = Number((await c.execute("INSERT INTO localities (name) VALUES ('Mosta') RETURNING id")).rows[0]!.id);
  const l2 = Number((await c.execute("INSERT INTO localities (name) VALUES ('Naxxar') RETURNING id")).rows[0]!.id);
  const r = await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Mark Farrugia", role: "driver", pin: 4444, mobile: "79111111" } });
  expect(r.status).toBe(200);
  const e = r.json.data;
  expect(e).toMatchObject({ full_name: "Mark Farrugia", role: "driver", agent_id: 1, enable_login: true, hq: false, accumulated: 0, pending: 0 });
  expect(e.pin).toBeUndefined();
  expect(e.pin_hash).toBeUndefined();

  const loc = await box.call("PUT", `/api/v1/employees/localities/${e.id}`, { token: admin, body: [l1, l2] });
  expect(loc.json.data.localities).toBe(`${l1},${l2}`);
  const again = await box.call("PUT", `/api/v1/employees/localities/${e.id}`, { token: admin, body: [l1] });
  expect(again.json.data.localities).toBe(`${l2}`);
  expect((await box.call("PUT", `/api/v1/employees/localities/${e.id}`, { token: admin, body: [987654] })).status).toBe(422);

  const got = await box.call("GET", `/api/v1/employees/${e.id}`, { token: admin });
  expect(got.json.data.agent).toEqual({ id: 1, name: "Head Quarters" });
  expect((await box.call("DELETE", `/api/v1/employees/${e.id}`, { token: admin })).json.data).toBe(true);
  expect((await box.call("GET", `/api/v1/employees/${e.id}`, { token: admin })).status).toBe(404);
});

test("PINs are unique within an agent, and a changed PIN logs the employee out", async () => {
  expect((await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Clash", role: "employee", pin: Number(ADMIN.pin) } })).status).toBe(409);
  const r = await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Anna Vella", role: "employee", pin: 3333 } });
  const anna = await box.employeeToken(3333);
  await box.call("PUT", `/api/v1/employees/${r.json.data.id}`, { token: admin, body: { pin: 3334 } });
  expect((await box.call("GET", "/api/v1/me", { token: anna })).status).toBe(401);
  await box.employeeToken(3334);
});

test("an admin cannot lock themselves out or remove themselves", async () => {
  expect((await box.call("PUT", "/api/v1/employees/1", { token: admin, body: { enable_login: false } })).status).toBe(422);
  expect((await box.call("PUT", "/api/v1/employees/1", { token: admin, body: { role: "employee" } })).status).toBe(422);
  expect((await box.call("DELETE", "/api/v1/employees/1", { token: admin })).status).toBe(409);
});

test("owings show on employee and driver records, and clearing settles them", async () => {
  const d = (await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Driver Owing", role: "driver", pin: 8181 } })).json.data;
  const c = box.database.client;
  await c.execute("INSERT INTO customers (agent_id, full_name) VALUES (1, 'Owing Customer')");
  const t = Number((await c.execute("INSERT INTO tickets (agent_id, employee_id, customer_id) VALUES (1, 1, (SELECT max(id) FROM customers)) RETURNING id")).rows[0]!.id);
  await c.execute({ sql: "INSERT INTO employee_owings (ticket_id, employee_id, amount, percentage) VALUES (?, ?, 2000, 10), (?, ?, 1555, 50)", args: [t, d.id, t, d.id] });
  await c.execute({ sql: "UPDATE employees SET pending = 978 WHERE id = ?", args: [d.id] });
  const before = (await box.call("GET", `/api/v1/employees/${d.id}`, { token: admin })).json.data;
  expect(before.employee_owings.map((o: { received: number }) => o.received).sort()).toEqual([2, 7.78]);
  expect(before.pending).toBe(9.78);
  expect((await box.call("GET", "/api/v1/employees/1", { token: admin })).json.data.employee_owings).toBeUndefined();

  await box.call("PUT", `/api/v1/employees/clearOwings/${d.id}`, { token: admin });
  const after = (await box.call("GET", `/api/v1/employees/${d.id}`, { token: admin })).json.data;
  expect(after).toMatchObject({ pending: 0, accumulated: 9.78 });
  expect(after.employee_owings.every((o: { state: string; paid_in_full: boolean }) => o.state === "CLEARED" && o.paid_in_full)).toBe(true);
  await box.call("PUT", `/api/v1/employees/clearOwings/${d.id}?close=true`, { token: admin });
  const closed = (await box.call("GET", `/api/v1/employees/${d.id}`, { token: admin })).json.data;
  expect(closed).toMatchObject({ accumulated: 0, employee_owings: [] });
});
