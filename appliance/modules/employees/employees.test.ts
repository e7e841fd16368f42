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
  const clash = await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Clash", role: "employee", pin: ADMIN.pin } });
  expect(clash.status).toBe(409);
  expect(clash.json.message).toBe("This PIN cannot be used; choose another");
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
  expect((await box.call("GET", "/api/v1/employees/1", { token: admin })).json.data.archived_at).toBeNull();
});

test("owings show on employee and driver records, and clearing settles them", async () => {
  const d = (await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Driver Owing", role: "driver", pin: 8181 } })).json.data;
  const c = box.database.client;
  await c.execute("INSERT INTO customers (agent_id, full_name) VALUES (1, 'Owing Customer')");
  const t = Number(
    (await c.execute("INSERT INTO tickets (agent_id, employee_id, customer_id) VALUES (1, 1, (SELECT max(id) FROM customers)) RETURNING id")).rows[0]!.id,
  );
  await c.execute({
    sql: "INSERT INTO employee_owings (ticket_id, employee_id, amount, percentage) VALUES (?, ?, 2000, 10), (?, ?, 1555, 50)",
    args: [t, d.id, t, d.id],
  });
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

test("clearing owings honours Idempotency-Key: a retry with the key settles nothing recorded since", async () => {
  const d = (await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Driver Retry", role: "driver", pin: 8282 } })).json.data;
  const c = box.database.client;
  await c.execute("INSERT INTO customers (agent_id, full_name) VALUES (1, 'Retry Customer')");
  const t = Number(
    (await c.execute("INSERT INTO tickets (agent_id, employee_id, customer_id) VALUES (1, 1, (SELECT max(id) FROM customers)) RETURNING id")).rows[0]!.id,
  );
  const owe = (cents: number) =>
    c.execute({ sql: "INSERT INTO employee_owings (ticket_id, employee_id, amount, percentage) VALUES (?, ?, ?, 100)", args: [t, d.id, cents] });
  await owe(1000);
  const headers = { "idempotency-key": "clear-owings-retry-1" };
  const first = await box.call("PUT", `/api/v1/employees/clearOwings/${d.id}`, { token: admin, headers });
  expect(first.status).toBe(200);
  await owe(500); // recorded after the first call; the lost-answer retry must leave it open
  const retry = await box.call("PUT", `/api/v1/employees/clearOwings/${d.id}`, { token: admin, headers });
  expect(retry.status).toBe(200);
  expect(retry.json).toEqual(first.json);
  const after = (await box.call("GET", `/api/v1/employees/${d.id}`, { token: admin })).json.data;
  expect(after.accumulated).toBe(10);
  expect(after.employee_owings.map((o: { state: string; received: number }) => [o.state, o.received]).sort()).toEqual([
    ["CLEARED", 10],
    ["OPEN", 5],
  ]);
});

test("a PIN clash does not say whose PIN it is and counts as a wrong PIN: 5 clashes lock the shop's PIN login", async () => {
  const own = await testBox();
  try {
    const agent = await own.agentToken();
    const boss = await own.employeeToken(ADMIN.pin, agent);
    const anna = (await own.call("POST", "/api/v1/employees/", { token: boss, body: { full_name: "Anna Vella", role: "employee", pin: "3333" } })).json.data;
    // Free PINs are no failures: changing a PIN many times locks nothing.
    for (let i = 0; i < 6; i++) expect((await own.call("PUT", `/api/v1/employees/${anna.id}`, { token: boss, body: { pin: `444${i}` } })).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const r = await own.call("PUT", `/api/v1/employees/${anna.id}`, { token: boss, body: { pin: ADMIN.pin } });
      expect(r.status).toBe(409);
      expect(r.json.message).not.toContain("Administrator");
    }
    expect((await own.call("POST", "/api/v1/employees/", { token: boss, body: { full_name: "Next", role: "employee", pin: "5151" } })).status).toBe(429);
    expect((await own.call("POST", "/api/v1/login/employee", { token: agent, body: { pin: ADMIN.pin } })).status).toBe(429);
  } finally {
    own.close();
  }
});

test("an employee with any history is archived, never 500; one without is removed", async () => {
  const c = box.database.client;
  const make = async (name: string, pin: string) =>
    (await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: name, role: "driver", pin } })).json.data.id as number;
  const del = (id: number) => box.call("DELETE", `/api/v1/employees/${id}`, { token: admin });
  const expectKept = async (id: number) => {
    const r = await del(id);
    expect(r.status).toBe(200);
    const kept = await box.call("GET", `/api/v1/employees/${id}`, { token: admin });
    expect(kept.status).toBe(200);
    expect(kept.json.data.archived_at).toBe("2026-11-22T09:00:00.000Z");
  };

  const loggedIn = await make("Logged In", "6101");
  await box.employeeToken("6101");
  await expectKept(loggedIn);

  await c.execute("INSERT INTO customers (agent_id, full_name) VALUES (1, 'History Customer')");
  const ticket = Number(
    (await c.execute("INSERT INTO tickets (agent_id, employee_id, customer_id) VALUES (1, 1, (SELECT max(id) FROM customers)) RETURNING id")).rows[0]!.id,
  );
  const owes = await make("Owes", "6102");
  await c.execute({ sql: "INSERT INTO employee_owings (ticket_id, employee_id, amount, percentage) VALUES (?, ?, 1000, 10)", args: [ticket, owes] });
  await expectKept(owes);

  const took = await make("Took A Ticket", "6103");
  await c.execute({ sql: "INSERT INTO tickets (agent_id, employee_id, customer_id) VALUES (1, ?, (SELECT max(id) FROM customers))", args: [took] });
  await expectKept(took);

  const logged = await make("Changed A State", "6104");
  await c.execute({
    sql: "INSERT INTO ticket_log_states (ticket_id, employee_id, state, logged_at) VALUES (?, ?, 'OPEN', '2026-11-22T09:00:00Z')",
    args: [ticket, logged],
  });
  await expectKept(logged);

  const audited = await make("Audited", "6105");
  await c.execute({
    sql: "INSERT INTO audit_log (at, agent_id, employee_id, action, entity) VALUES ('2026-11-22T09:00:00Z', 1, ?, 'update', 'customer')",
    args: [audited],
  });
  await expectKept(audited);

  const fresh = await make("Never Worked", "6106");
  expect((await del(fresh)).json.data).toBe(true);
  expect((await box.call("GET", `/api/v1/employees/${fresh}`, { token: admin })).status).toBe(404);
});
