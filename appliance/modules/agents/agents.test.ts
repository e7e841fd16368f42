import { afterAll, beforeAll, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";

let box: TestBox;
let admin: string;
let localityId: number;
let streetId: number;
beforeAll(async () => {
  box = await testBox();
  admin = await box.employeeToken(ADMIN.pin);
  const c = box.database.client;
  localityId = Number((await c.execute("INSERT INTO localities (name) VALUES ('Birkirkara') RETURNING id")).rows[0]!.id);
  streetId = Number(
    (await c.execute({ sql: "INSERT INTO streets (locality_id, name) VALUES (?, 'Triq il-Kbira') RETURNING id", args: [localityId] })).rows[0]!.id,
  );
});
afterAll(() => box.close());

test("create, read, update, set password, log in, delete an agent", async () => {
  const created = await box.call("POST", "/api/v1/agents/", {
    token: admin,
    body: {
      name: "Ironbox Birkirkara",
      user_name: "bkara",
      mobile: "79000000",
      commission: 10,
      address: { number: "12", name: "Dar Ruzar", locality_id: localityId, street_id: streetId },
    },
  });
  expect(created.status).toBe(200);
  const id = created.json.data.id;
  expect(created.json.data).toMatchObject({ name: "Ironbox Birkirkara", user_name: "bkara", commission: 10, password_set: false });
  expect(created.json.data.password_hash).toBeUndefined();
  expect(created.json.data.address).toMatchObject({ locality: "Birkirkara", street: "Triq il-Kbira", number: "12" });

  const list = await box.call("GET", "/api/v1/agents/", { token: admin });
  expect(list.json.data.find((a: { id: number }) => a.id === id)).toMatchObject({ locality: "Birkirkara" });

  expect((await box.call("PUT", `/api/v1/agents/${id}`, { token: admin, body: { landline: "21000000" } })).json.data.landline).toBe("21000000");
  expect((await box.call("POST", "/api/v1/login/agent", { body: { user_name: "bkara", password: "bkara-pass-1" } })).status).toBe(401);
  expect(
    (await box.call("PUT", `/api/v1/agents/password/${id}`, { token: admin, body: { password: "bkara-pass-1", email_address: "b@ironbox.mt" } })).json,
  ).toEqual({ success: true, data: true });
  expect((await box.call("POST", "/api/v1/login/agent", { body: { user_name: "bkara", password: "bkara-pass-1" } })).status).toBe(200);

  expect((await box.call("DELETE", `/api/v1/agents/${id}`, { token: admin })).json).toEqual({ success: true, data: true });
  expect((await box.call("GET", `/api/v1/agents/${id}`, { token: admin })).status).toBe(404);
  const trail = await box.database.client.execute({ sql: "SELECT action FROM audit_log WHERE entity='agent' AND entity_id=? ORDER BY id", args: [id] });
  expect(trail.rows.map((r) => r.action)).toEqual(["create", "update", "set_password", "delete"]);
});

test("an address needs both locality and street, and the street must be in the locality", async () => {
  for (const address of [
    { locality_id: localityId, street_id: 0 },
    { locality_id: 0, street_id: streetId },
    { locality_id: localityId + 99, street_id: streetId },
  ]) {
    const r = await box.call("POST", "/api/v1/agents/", {
      token: admin,
      body: { name: "X", user_name: `x${address.locality_id}${address.street_id}`, address },
    });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe("Invalid Address");
  }
});

test("user names are unique; the HQ agent cannot be deleted; an agent with records is archived and restored", async () => {
  expect((await box.call("POST", "/api/v1/agents/", { token: admin, body: { name: "Dup", user_name: ADMIN.user } })).status).toBe(409);
  expect((await box.call("DELETE", "/api/v1/agents/1", { token: admin })).status).toBe(409);
  const shop = (await box.call("POST", "/api/v1/agents/", { token: admin, body: { name: "Mosta", user_name: "mosta-x" } })).json.data;
  await box.call("PUT", `/api/v1/agents/password/${shop.id}`, { token: admin, body: { password: "mosta-x-pass" } });
  await box.call("POST", "/api/v1/employees/", { token: admin, body: { agent_id: shop.id, full_name: "Mosta Staff", role: "employee", pin: 1212 } });
  const shopAgent = await box.agentToken("mosta-x", "mosta-x-pass");
  const staff = await box.employeeToken(1212, shopAgent);
  const listed = async (q = "") => (await box.call("GET", `/api/v1/agents/${q}`, { token: admin })).json.data.map((a: { name: string }) => a.name);

  const r = await box.call("DELETE", `/api/v1/agents/${shop.id}`, { token: admin });
  expect(r.status).toBe(200);
  // Archived: kept on record, hidden from the list, its and its staff's sessions ended, no login.
  expect((await box.call("GET", `/api/v1/agents/${shop.id}`, { token: admin })).json.data).toMatchObject({
    enabled: false,
    archived_at: "2026-11-22T09:00:00.000Z",
  });
  expect(await listed()).not.toContain("Mosta");
  expect(await listed("?archived=true")).toEqual(["Mosta"]);
  expect((await box.call("GET", "/api/v1/me", { token: shopAgent })).status).toBe(401);
  expect((await box.call("GET", "/api/v1/me", { token: staff })).status).toBe(401);
  expect((await box.call("POST", "/api/v1/login/agent", { body: { user_name: "mosta-x", password: "mosta-x-pass" } })).status).toBe(401);
  // Not edited back to life behind the restore's back, not archived twice.
  expect((await box.call("PUT", `/api/v1/agents/${shop.id}`, { token: admin, body: { enabled: true } })).status).toBe(409);
  expect((await box.call("DELETE", `/api/v1/agents/${shop.id}`, { token: admin })).status).toBe(409);

  const back = await box.call("PUT", `/api/v1/agents/restore/${shop.id}`, { token: admin });
  expect(back.status).toBe(200);
  expect(back.json.data).toMatchObject({ enabled: true, archived_at: null });
  expect(await listed()).toContain("Mosta");
  await box.agentToken("mosta-x", "mosta-x-pass");
  expect((await box.call("PUT", `/api/v1/agents/restore/${shop.id}`, { token: admin })).status).toBe(409);
});

test("disabling an agent ends its sessions", async () => {
  const shop = await box.call("POST", "/api/v1/agents/", { token: admin, body: { name: "Zebbug", user_name: "zebbug" } });
  await box.call("PUT", `/api/v1/agents/password/${shop.json.data.id}`, { token: admin, body: { password: "zebbug-pass" } });
  const t = await box.agentToken("zebbug", "zebbug-pass");
  expect((await box.call("GET", "/api/v1/me", { token: t })).status).toBe(200);
  await box.call("PUT", `/api/v1/agents/${shop.json.data.id}`, { token: admin, body: { enabled: false } });
  const r = await box.call("GET", "/api/v1/me", { token: t });
  expect(r.status).toBe(401);
  expect(r.json.message).toMatch(/^Agent/);
  expect((await box.call("POST", "/api/v1/login/agent", { body: { user_name: "zebbug", password: "zebbug-pass" } })).status).toBe(401);
});

test("a shop admin edits its own agent but not the terms HQ sets (403, unchanged); HQ still can", async () => {
  const shop = (await box.call("POST", "/api/v1/agents/", { token: admin, body: { name: "Naxxar", user_name: "naxxar", commission: 10, type: "SHOP" } })).json
    .data;
  await box.call("PUT", `/api/v1/agents/password/${shop.id}`, { token: admin, body: { password: "naxxar-pass" } });
  await box.call("POST", "/api/v1/employees/", { token: admin, body: { agent_id: shop.id, full_name: "Naxxar admin", role: "admin", pin: 4545 } });
  const shopAdmin = await box.employeeToken(4545, await box.agentToken("naxxar", "naxxar-pass"));

  for (const body of [
    { commission: 50 },
    { type: "FRANCHISE" },
    { user_name: "naxxar-2" },
    { can_see_action: "1,2,3" },
    { commission: 50, landline: "21000001" },
  ]) {
    const r = await box.call("PUT", `/api/v1/agents/${shop.id}`, { token: shopAdmin, body });
    expect(r.status, JSON.stringify(body)).toBe(403);
    expect(r.json.message).toStartWith("Only head quarters may change");
  }
  expect((await box.call("GET", `/api/v1/agents/${shop.id}`, { token: admin })).json.data).toMatchObject({
    commission: 10,
    type: "SHOP",
    user_name: "naxxar",
    can_see_action: null,
    landline: "",
  });

  // Control: the screen sends the whole record back; unchanged terms and its own fields save.
  const own = await box.call("PUT", `/api/v1/agents/${shop.id}`, {
    token: shopAdmin,
    body: { commission: 10, type: "SHOP", user_name: "naxxar", landline: "21000002" },
  });
  expect(own.status).toBe(200);
  expect(own.json.data.landline).toBe("21000002");
  const byHq = await box.call("PUT", `/api/v1/agents/${shop.id}`, { token: admin, body: { commission: 12, can_see_action: "1,2" } });
  expect(byHq.json.data).toMatchObject({ commission: 12, can_see_action: "1,2" });
  const trail = await box.database.client.execute({
    sql: "SELECT detail FROM audit_log WHERE entity = 'agent' AND entity_id = ? AND action = 'update' ORDER BY id DESC LIMIT 1",
    args: [shop.id],
  });
  expect(JSON.parse(String(trail.rows[0]!.detail))).toEqual({ commission: [10, 12], can_see_action: [null, "1,2"] });
  // Only action ids: names or a typo would silently hide every action from the shop.
  const named = await box.call("PUT", `/api/v1/agents/${shop.id}`, { token: admin, body: { can_see_action: "Dry Cleaning, Laundry" } });
  expect(named.status).toBe(422);
  expect(named.json.message).toContain("can_see_action");
  const spaced = await box.call("PUT", `/api/v1/agents/${shop.id}`, { token: admin, body: { can_see_action: "1; 2 3" } });
  expect(spaced.json.data).toMatchObject({ can_see_action: "1; 2 3" });
});
