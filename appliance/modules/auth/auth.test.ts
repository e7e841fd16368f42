import { afterEach, describe, expect, test } from "bun:test";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { signToken, verifyToken } from "./tokens";

let box: TestBox;
afterEach(() => box?.close());

const decode = (t: string) => JSON.parse(Buffer.from(t.split(".")[1]!, "base64url").toString());

describe("agent login", () => {
  test("right password gives an agent token with the spec's claims; wrong ones a 401 starting 'Agent'", async () => {
    box = await testBox();
    const ok = await box.call("POST", "/api/v1/login/agent", { body: { user_name: ADMIN.user, password: ADMIN.password } });
    expect(ok.status).toBe(200);
    expect(ok.json.success).toBe(true);
    const claims = decode(ok.json.data);
    expect(claims).toMatchObject({ kind: "agent", agent_id: 1 });
    expect(typeof claims.jti).toBe("string");
    expect(claims.exp).toBeGreaterThan(Date.parse("2026-11-22T09:00:00Z") / 1000);

    const bad = await box.call("POST", "/api/v1/login/agent", { body: { user_name: ADMIN.user, password: "nope-nope" } });
    expect(bad.status).toBe(401);
    expect(bad.json).toEqual({ success: false, message: expect.stringMatching(/^Agent/) });
    const unknown = await box.call("POST", "/api/v1/login/agent", { body: { user_name: "ghost", password: "x" } });
    expect(unknown.status).toBe(401);
    expect(unknown.json.message).toBe(bad.json.message);
  });

  test("blank fields are a 422 naming the fields, without echoing them", async () => {
    box = await testBox();
    const r = await box.call("POST", "/api/v1/login/agent", { body: { user_name: "   ", password: "" } });
    expect(r.status).toBe(422);
    expect(r.json.message).toContain("user_name");
    expect(r.json.message).toContain("password");
  });

  test("10 wrong passwords in 15 minutes lock the agent; the lock expires", async () => {
    box = await testBox();
    for (let i = 0; i < 10; i++) {
      expect((await box.call("POST", "/api/v1/login/agent", { body: { user_name: ADMIN.user, password: `wrong-${i}` } })).status).toBe(401);
    }
    const locked = await box.call("POST", "/api/v1/login/agent", { body: { user_name: ADMIN.user, password: ADMIN.password } });
    expect(locked.status).toBe(429);
    box.clock.advance(16 * 60_000);
    expect((await box.call("POST", "/api/v1/login/agent", { body: { user_name: ADMIN.user, password: ADMIN.password } })).status).toBe(200);
  });
});

describe("employee login", () => {
  test("PIN within the agent session gives an employee token with role, hq and names", async () => {
    box = await testBox();
    const t = await box.employeeToken(ADMIN.pin);
    expect(decode(t)).toMatchObject({ kind: "employee", employee_id: 1, role: "admin", hq: true, employee_name: "Administrator", agent_name: "Head Quarters" });
    const me = await box.call("GET", "/api/v1/me", { token: t });
    expect(me.json.data).toEqual({ agent: { id: 1, name: "Head Quarters", is_hq: true }, employee: { id: 1, full_name: "Administrator", role: "admin", hq: true } });
  });

  test("a wrong PIN is a 401 starting 'Employee'; 5 in a row lock PIN login until a manager unlocks", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    const admin = await box.employeeToken(ADMIN.pin, agent);
    for (let i = 0; i < 5; i++) {
      const r = await box.call("POST", "/api/v1/login/employee", { token: agent, body: { pin: 1234 + i } });
      expect(r.status).toBe(401);
      expect(r.json.message).toMatch(/^Employee/);
    }
    const locked = await box.call("POST", "/api/v1/login/employee", { token: agent, body: { pin: Number(ADMIN.pin) } });
    expect(locked.status).toBe(429);
    // The admin still logged in on another tablet lifts the lock.
    expect((await box.call("PUT", "/api/v1/login/employee/unlock", { token: admin })).status).toBe(200);
    expect((await box.call("POST", "/api/v1/login/employee", { token: agent, body: { pin: Number(ADMIN.pin) } })).status).toBe(200);
  });

  test("the PIN lock also expires after 15 minutes", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    for (let i = 0; i < 5; i++) await box.call("POST", "/api/v1/login/employee", { token: agent, body: { pin: 1 } });
    expect((await box.call("POST", "/api/v1/login/employee", { token: agent, body: { pin: Number(ADMIN.pin) } })).status).toBe(429);
    box.clock.advance(15 * 60_000 + 1000);
    expect((await box.call("POST", "/api/v1/login/employee", { token: agent, body: { pin: Number(ADMIN.pin) } })).status).toBe(200);
  });

  test("PINs are stored only as keyed hashes", async () => {
    box = await testBox();
    const rows = await box.database.client.execute("SELECT pin_hash FROM employees");
    for (const r of rows.rows) expect(String(r.pin_hash)).not.toContain(ADMIN.pin);
    const agents = await box.database.client.execute("SELECT password_hash FROM agents");
    expect(String(agents.rows[0]!.password_hash)).toStartWith("$argon2id$");
  });
});

describe("sessions", () => {
  test("employee logout ends only the employee session; agent logout ends both", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    const emp = await box.employeeToken(ADMIN.pin, agent);
    expect((await box.call("GET", "/api/v1/logout/employee", { token: emp })).status).toBe(200);
    const after = await box.call("GET", "/api/v1/employees/", { token: emp });
    expect(after.status).toBe(401);
    expect(after.json.message).toMatch(/^Employee/);
    expect((await box.call("GET", "/api/v1/me", { token: agent })).status).toBe(200);

    const emp2 = await box.employeeToken(ADMIN.pin, agent);
    expect((await box.call("GET", "/api/v1/logout/agent", { token: agent })).status).toBe(200);
    const a = await box.call("GET", "/api/v1/me", { token: agent });
    expect(a.status).toBe(401);
    expect(a.json.message).toMatch(/^Agent/);
    expect((await box.call("GET", "/api/v1/employees/", { token: emp2 })).json.message).toMatch(/^Agent/);
  });

  test("expired tokens answer 'Employee …' or 'Agent …'; forged or alg-none tokens 'Token …'", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    const emp = await box.employeeToken(ADMIN.pin, agent);
    box.clock.advance(13 * 3600_000);
    expect((await box.call("GET", "/api/v1/employees/", { token: emp })).json.message).toMatch(/^Employee/);
    box.clock.advance(31 * 24 * 3600_000);
    expect((await box.call("GET", "/api/v1/me", { token: agent })).json.message).toMatch(/^Agent/);

    const claims = decode(agent);
    const forged = signToken("not-the-box-secret", { ...claims, exp: claims.exp + 1e9 });
    const r = await box.call("GET", "/api/v1/me", { token: forged });
    expect(r.status).toBe(401);
    expect(r.json.message).toMatch(/^Token/);
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${agent.split(".")[1]}.`;
    expect((await box.call("GET", "/api/v1/me", { token: none })).json.message).toMatch(/^Token/);
    expect((await box.call("GET", "/api/v1/me", { headers: { authorization: "Bearer abc" } })).json.message).toMatch(/^Token/);
  });

  test("disabling an employee ends their sessions at once; a role change applies on the next request", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    const admin = await box.employeeToken(ADMIN.pin, agent);
    const created = await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Temp Admin", role: "admin", pin: 4242 } });
    const other = await box.employeeToken(4242, agent);
    expect((await box.call("GET", "/api/v1/employees/", { token: other })).status).toBe(200);
    await box.call("PUT", `/api/v1/employees/${created.json.data.id}`, { token: admin, body: { role: "driver" } });
    expect((await box.call("GET", "/api/v1/employees/", { token: other })).status).toBe(403);
    await box.call("PUT", `/api/v1/employees/${created.json.data.id}`, { token: admin, body: { enable_login: false } });
    const r = await box.call("GET", "/api/v1/me", { token: other });
    expect(r.status).toBe(401);
    expect(r.json.message).toMatch(/^Employee/);
    expect((await box.call("POST", "/api/v1/login/employee", { token: agent, body: { pin: 4242 } })).status).toBe(401);
  });
});

describe("tokens", () => {
  test("verify accepts its own HS256 tokens and rejects tampering", () => {
    const t = signToken("s3cret", { kind: "agent", agent_id: 7, agent_name: "A", jti: "j", exp: 2000 });
    expect(verifyToken("s3cret", t, 1000)).toMatchObject({ ok: true, claims: { agent_id: 7 } });
    expect(verifyToken("s3cret", t, 2000)).toMatchObject({ ok: false, reason: "expired" });
    const [h, p, s] = t.split(".");
    const p2 = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, "base64url").toString()), agent_id: 8 })).toString("base64url");
    expect(verifyToken("s3cret", `${h}.${p2}.${s}`, 1000)).toMatchObject({ ok: false, reason: "signature" });
    expect(verifyToken("s3cret", "a.b", 1000)).toMatchObject({ ok: false, reason: "malformed" });
  });
});

describe("first-run setup", () => {
  test("an empty box reports setup_required and accepts one setup, then refuses another", async () => {
    box = await testBox({ admin: false });
    expect((await box.call("GET", "/api/v1/health")).json.data).toMatchObject({ database: "ok", setup_required: true });
    const body = { agent_name: "Ironbox Sliema", user_name: "sliema", password: "sliema-pass-1", full_name: "Rita Spiteri", pin: 1357 };
    expect((await box.call("POST", "/api/v1/setup", { body })).status).toBe(200);
    expect((await box.call("GET", "/api/v1/health")).json.data.setup_required).toBe(false);
    expect((await box.call("POST", "/api/v1/setup", { body: { ...body, user_name: "again" } })).status).toBe(409);
    const t = await box.employeeToken(1357, await box.agentToken("sliema", "sliema-pass-1"));
    expect(decode(t)).toMatchObject({ role: "admin", hq: true, employee_name: "Rita Spiteri" });
  });
});
