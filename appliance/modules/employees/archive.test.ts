// Issue 22: deleting an employee who has worked archives them, so a shop can remove someone who
// left while every ticket, log and report keeps their name.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

let box: TestBox;
let agent: string;
let admin: string;
beforeAll(async () => {
  box = await testBox();
  agent = await box.agentToken();
  admin = await box.employeeToken(ADMIN.pin, agent);
});
afterAll(() => box.close());

const names = async (query = "") =>
  (await box.call("GET", `/api/v1/employees/${query}`, { token: admin })).json.data.map((e: { full_name: string }) => e.full_name);
const create = async (full_name: string, pin: string, role = "driver") => {
  const r = await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name, role, pin } });
  expect(r.status).toBe(200);
  return r.json.data.id as number;
};

test("an employee with history is archived: hidden, logged out at once, PIN free, name kept on their ticket", async () => {
  const id = await create("Joe Leaver", "4711");
  const joe = await box.employeeToken("4711", agent);
  const c = box.database.client;
  await c.execute("INSERT INTO customers (agent_id, full_name) VALUES (1, 'Archive Customer')");
  const ticket = Number(
    (
      await c.execute({
        sql: "INSERT INTO tickets (agent_id, employee_id, customer_id) VALUES (1, ?, (SELECT max(id) FROM customers)) RETURNING id",
        args: [id],
      })
    ).rows[0]!.id,
  );

  const del = await box.call("DELETE", `/api/v1/employees/${id}`, { token: admin });
  expect(del.status).toBe(200);
  expect(del.json.data).toBe(true);

  // Gone from the list (and so from the scheduler's driver picker), listed with ?archived=true.
  expect(await names()).not.toContain("Joe Leaver");
  expect(await names("?archived=true")).toEqual(["Joe Leaver"]);
  // Their session ends at once and their PIN logs nobody in.
  expect((await box.call("GET", "/api/v1/me", { token: joe })).status).toBe(401);
  expect((await box.call("POST", "/api/v1/login/employee", { token: agent, body: { pin: "4711" } })).status).toBe(401);
  // The PIN is free for someone new, and no hash of it stays on the archived record.
  await create("New Starter", "4711", "employee");
  expect((await box.employeeToken("4711", agent)).length).toBeGreaterThan(0);
  // History keeps the name: the ticket, and the State Logs filter's names.
  expect((await box.call("GET", `/api/v1/tickets/${ticket}`, { token: admin })).json.data.employee).toBe("Joe Leaver");
  const filter = (await box.call("GET", "/api/v1/employees/names", { token: admin })).json.data;
  expect(filter.map((e: { full_name: string }) => e.full_name)).toContain("Joe Leaver");
  // An archived record is not edited (restore first), nor archived twice.
  expect((await box.call("PUT", `/api/v1/employees/${id}`, { token: admin, body: { pin: "4712" } })).status).toBe(409);
  expect((await box.call("DELETE", `/api/v1/employees/${id}`, { token: admin })).status).toBe(409);
  // The audit log says what happened.
  const audit = await c.execute({ sql: "SELECT action FROM audit_log WHERE entity = 'employee' AND entity_id = ? ORDER BY id", args: [id] });
  expect(audit.rows.map((r) => r.action)).toEqual(["create", "archive"]);
});

test("an admin restores an archived employee with a new PIN; the taken old PIN is refused as any clash", async () => {
  const id = await create("Maria Back", "4811");
  await box.employeeToken("4811", agent);
  expect((await box.call("DELETE", `/api/v1/employees/${id}`, { token: admin })).status).toBe(200);
  await create("Took Her PIN", "4811", "employee");

  expect((await box.call("PUT", `/api/v1/employees/restore/${id}`, { token: admin, body: { pin: "4811" } })).status).toBe(409);
  expect(await names("?archived=true")).toContain("Maria Back");
  const r = await box.call("PUT", `/api/v1/employees/restore/${id}`, { token: admin, body: { pin: "4812" } });
  expect(r.status).toBe(200);
  expect(r.json.data.archived_at).toBeNull();
  expect(await names()).toContain("Maria Back");
  expect(await names("?archived=true")).not.toContain("Maria Back");
  await box.employeeToken("4812", agent);
  // Restoring someone who is not archived is a conflict.
  expect((await box.call("PUT", `/api/v1/employees/restore/${id}`, { token: admin, body: {} })).status).toBe(409);
});

test("restored without a PIN, an employee logs in once an admin sets one", async () => {
  const id = await create("No Pin Yet", "4911");
  await box.employeeToken("4911", agent);
  await box.call("DELETE", `/api/v1/employees/${id}`, { token: admin });
  expect((await box.call("PUT", `/api/v1/employees/restore/${id}`, { token: admin, body: {} })).status).toBe(200);
  expect((await box.call("POST", "/api/v1/login/employee", { token: agent, body: { pin: "4911" } })).status).toBe(401);
  expect((await box.call("PUT", `/api/v1/employees/${id}`, { token: admin, body: { pin: "4911" } })).status).toBe(200);
  await box.employeeToken("4911", agent);
});

test("control: an employee without history is still removed for good", async () => {
  const id = await create("Never Started", "5011");
  expect((await box.call("DELETE", `/api/v1/employees/${id}`, { token: admin })).status).toBe(200);
  expect((await box.call("GET", `/api/v1/employees/${id}`, { token: admin })).status).toBe(404);
  expect(await names("?archived=true")).not.toContain("Never Started");
});

test("another shop's admin can neither list nor restore this shop's archived staff", async () => {
  const shop = (await box.call("POST", "/api/v1/agents/", { token: admin, body: { name: "Zebbug", user_name: "zebbug-arch" } })).json.data;
  await box.call("PUT", `/api/v1/agents/password/${shop.id}`, { token: admin, body: { password: "zebbug-pass-1" } });
  await box.call("POST", "/api/v1/employees/", { token: admin, body: { agent_id: shop.id, full_name: "Zebbug Admin", role: "admin", pin: "5111" } });
  const other = await box.employeeToken("5111", await box.agentToken("zebbug-arch", "zebbug-pass-1"));
  const id = await create("HQ Leaver", "5112");
  await box.employeeToken("5112", agent);
  await box.call("DELETE", `/api/v1/employees/${id}`, { token: admin });
  const list = (await box.call("GET", "/api/v1/employees/?archived=true", { token: other })).json.data;
  expect(list).toEqual([]);
  expect((await box.call("PUT", `/api/v1/employees/restore/${id}`, { token: other, body: {} })).status).toBe(404);
});
