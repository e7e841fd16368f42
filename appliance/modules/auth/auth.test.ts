import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { statusOf as httpStatus } from "../../http/errors";
import { AppError } from "../../platform/errors";
import { ADMIN, type TestBox, testBox } from "../../test/harness";
import { getBoxSecret, hashPin } from "./secrets";
import { createAuthService } from "./service";
import { signToken, verifyToken } from "./tokens";

let box: TestBox;
afterEach(() => box?.close());

const decode = (t: string) => JSON.parse(Buffer.from(t.split(".")[1]!, "base64url").toString());
const agentLogin = (user_name: string, password: string) => box.call("POST", "/api/v1/login/agent", { body: { user_name, password } });
const pinLogin = (agent: string, pin: unknown) => box.call("POST", "/api/v1/login/employee", { token: agent, body: { pin } });
/** The auth service on the box's database, to log in from chosen client addresses (the harness has no peer). */
const authOn = async (b: TestBox) => createAuthService({ db: b.database.db, clock: b.clock, secret: await getBoxSecret(b.database.db) });

/** What the HTTP app would answer for a service call: 200, the error's status, or 500. */
const statusOf = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: unknown) => (e instanceof AppError ? httpStatus(e) : 500),
  );

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

  test("5 wrong passwords go unhindered, then each try waits 1 s doubling; 10 lock until the window passes", async () => {
    box = await testBox();
    for (let i = 0; i < 5; i++) expect((await agentLogin(ADMIN.user, `wrong-${i}`)).status).toBe(401);
    const wait = await agentLogin(ADMIN.user, ADMIN.password);
    expect(wait.status).toBe(429);
    expect(wait.json.message).toContain("try again in 1 second");
    for (let i = 5; i < 10; i++) {
      box.clock.advance(20_000);
      expect((await agentLogin(ADMIN.user, `wrong-${i}`)).status).toBe(401);
    }
    box.clock.advance(60_000);
    expect((await agentLogin(ADMIN.user, ADMIN.password)).status).toBe(429);
    box.clock.advance(15 * 60_000);
    expect((await agentLogin(ADMIN.user, ADMIN.password)).status).toBe(200);
  });

  test("300 parallel wrong passwords: the attempt is recorded before argon2 runs, so at most 10 are verified", async () => {
    box = await testBox();
    const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => agentLogin(ADMIN.user, `guess-${i}`)));
    const verified = answers.filter((r) => r.status === 401).length;
    expect(verified).toBeGreaterThan(0);
    expect(verified).toBeLessThanOrEqual(10);
    expect(answers.filter((r) => r.status === 429).length).toBe(300 - verified);
    const rows = await box.database.client.execute("SELECT count(*) AS n FROM auth_failures WHERE kind = 'password'");
    expect(Number(rows.rows[0]!.n)).toBe(verified);
  });

  test("unknown and existing user names answer alike, wrong passwords and lock included", async () => {
    box = await testBox();
    const run = async (name: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 12; i++) {
        const r = await agentLogin(name, `wrong-${i}`);
        seen.push(`${r.status} ${r.json.message}`);
        box.clock.advance(20_000);
      }
      return seen;
    };
    const real = await run(ADMIN.user);
    box.clock.advance(60 * 60_000);
    const ghost = await run("ghost");
    expect(ghost).toEqual(real);
    expect(real.filter((s) => s.startsWith("401"))).toHaveLength(10);
    expect(real.slice(10).every((s) => s.startsWith("429"))).toBe(true);
  });

  test("the lock is per user name and client address: a stranger cannot lock the shop out", async () => {
    box = await testBox();
    const auth = await authOn(box);
    for (let i = 0; i < 10; i++) {
      expect(await statusOf(auth.loginAgent(ADMIN.user, `wrong-${i}`, "10.0.0.66"))).toBe(401);
      box.clock.advance(20_000);
    }
    expect(await statusOf(auth.loginAgent(ADMIN.user, ADMIN.password, "10.0.0.66"))).toBe(429);
    // The shop's own tablet, elsewhere on the LAN, still logs in.
    expect(await statusOf(auth.loginAgent(ADMIN.user, ADMIN.password, "10.0.0.5"))).toBe(200);
  });
});

describe("employee login", () => {
  test("PIN within the agent session gives an employee token with role, hq and names", async () => {
    box = await testBox();
    const t = await box.employeeToken(ADMIN.pin);
    expect(decode(t)).toMatchObject({ kind: "employee", employee_id: 1, role: "admin", hq: true, employee_name: "Administrator", agent_name: "Head Quarters" });
    const me = await box.call("GET", "/api/v1/me", { token: t });
    expect(me.json.data).toEqual({
      agent: { id: 1, name: "Head Quarters", is_hq: true },
      employee: { id: 1, full_name: "Administrator", role: "admin", hq: true },
    });
  });

  test("a wrong PIN is a 401 starting 'Employee'; 5 in a row lock PIN login until a manager unlocks", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    const admin = await box.employeeToken(ADMIN.pin, agent);
    for (let i = 0; i < 5; i++) {
      const r = await pinLogin(agent, `${1234 + i}`);
      expect(r.status).toBe(401);
      expect(r.json.message).toMatch(/^Employee/);
    }
    const locked = await pinLogin(agent, ADMIN.pin);
    expect(locked.status).toBe(429);
    // The admin still logged in on another tablet lifts the lock.
    expect((await box.call("PUT", "/api/v1/login/employee/unlock", { token: admin })).status).toBe(200);
    // The tablet that made the 5 wrong PINs logs in at once (see below).
    expect((await pinLogin(agent, ADMIN.pin)).status).toBe(200);
  });

  test("a right PIN does not clear others' wrong PINs: 4 guesses, one's own PIN, one more guess lock the shop", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    const admin = await box.employeeToken(ADMIN.pin, agent);
    expect((await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Anna Vella", role: "employee", pin: "3333" } })).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await pinLogin(agent, `100${i}`)).status).toBe(401);
    expect((await pinLogin(agent, "3333")).status).toBe(200);
    expect((await pinLogin(agent, "1004")).status).toBe(401);
    // Before issue 11, Anna's PIN had cleared the count and four more guesses were free.
    expect((await pinLogin(agent, ADMIN.pin)).status).toBe(429);
    expect((await pinLogin(agent, "3333")).status).toBe(429);
  });

  test("parallel wrong PINs: each is recorded before it is checked, so at most 5 are tried", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => pinLogin(agent, `${5000 + i}`)));
    const tried = answers.filter((r) => r.status === 401).length;
    expect(tried).toBeGreaterThan(0);
    expect(tried).toBeLessThanOrEqual(5);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(60 - tried);
  });

  test("an unlock clears the back-off of the tablet that made the wrong PINs too (issue 22); 5 more lock the shop again", async () => {
    box = await testBox();
    const guesser = await box.agentToken();
    const other = await box.agentToken();
    const admin = await box.employeeToken(ADMIN.pin, other);
    for (let i = 0; i < 5; i++) expect((await pinLogin(guesser, `700${i}`)).status).toBe(401);
    const locked = await pinLogin(guesser, ADMIN.pin);
    expect(locked.status).toBe(429);
    expect(locked.json.message).toMatch(/^Employee login locked after 5 wrong PINs/);
    expect((await box.call("PUT", "/api/v1/login/employee/unlock", { token: admin })).status).toBe(200);
    // Before, this tablet answered 429 "wait 5 seconds" here, doubling with each wrong PIN.
    const right = await pinLogin(guesser, ADMIN.pin);
    expect(right.status).toBe(200);
    expect((await pinLogin(guesser, "7005")).status).toBe(401);
    // Control: the unlock hands out no more than the shop lock allows, 5 guesses in all.
    for (let i = 6; i < 10; i++) expect((await pinLogin(guesser, `700${i}`)).status).toBe(401);
    expect((await pinLogin(guesser, ADMIN.pin)).status).toBe(429);
    expect((await pinLogin(other, ADMIN.pin)).status).toBe(429);
  });

  test("the PIN lock also expires after 15 minutes", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    for (let i = 0; i < 5; i++) await pinLogin(agent, `000${i}`);
    expect((await pinLogin(agent, ADMIN.pin)).status).toBe(429);
    box.clock.advance(15 * 60_000 + 1000);
    expect((await pinLogin(agent, ADMIN.pin)).status).toBe(200);
  });

  test("PINs are strings of 4 to 8 digits; leading zeros count; the spec's integer is still taken", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    const admin = await box.employeeToken(ADMIN.pin, agent);
    for (const pin of ["123", "123456789", "12a4", "", 123, 1.5, -1234]) {
      const r = await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Short", role: "employee", pin } });
      expect(r.status).toBe(422);
      expect(r.json.message).toContain("pin");
      expect((await pinLogin(agent, pin)).status).toBe(422);
    }
    expect((await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Zero", role: "employee", pin: "0123" } })).status).toBe(200);
    expect(decode(await box.employeeToken("0123", agent)).employee_name).toBe("Zero");
    expect((await pinLogin(agent, "123")).status).toBe(422);
    expect((await pinLogin(agent, 9999)).status).toBe(200);
    expect((await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Eight", role: "employee", pin: "00000007" } })).status).toBe(200);
    expect(decode(await box.employeeToken("00000007", agent)).employee_name).toBe("Eight");
  });

  test("a PIN stored as a number logs in with its digits typed (leading zero too), then is re-hashed from them", async () => {
    box = await testBox();
    const secret = await getBoxSecret(box.database.db);
    const c = box.database.client;
    // Before issue 11 the PIN "0123" was stored as the number 123, and "7" was a valid PIN.
    await c.execute({
      sql: "INSERT INTO employees (agent_id, full_name, role, pin_hash, pin_legacy) VALUES (1, 'Old Zero', 'employee', ?, 1), (1, 'Old Seven', 'employee', ?, 1)",
      args: [hashPin(secret, 1, 123), hashPin(secret, 1, 7)],
    });
    const agent = await box.agentToken();
    expect(decode(await box.employeeToken("0123", agent)).employee_name).toBe("Old Zero");
    const row = (await c.execute("SELECT pin_hash, pin_legacy FROM employees WHERE full_name = 'Old Zero'")).rows[0]!;
    expect(row.pin_hash).toBe(hashPin(secret, 1, "0123"));
    expect(Number(row.pin_legacy)).toBe(0);
    // Now only the digits typed are its PIN.
    expect((await pinLogin(agent, "00123")).status).toBe(401);
    expect(decode(await box.employeeToken("0123", agent)).employee_name).toBe("Old Zero");
    // A PIN shorter than 4 digits is typed with leading zeros.
    expect(decode(await box.employeeToken("0007", agent)).employee_name).toBe("Old Seven");
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

describe("idle timeout on the box (spec §6: 6 minutes at the counter, 8 hours for drivers)", () => {
  test("an employee session idle past 6 minutes answers 401 'Employee …'; activity keeps it; the shop stays logged in", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    const emp = await box.employeeToken(ADMIN.pin, agent);
    box.clock.advance(5 * 60_000);
    expect((await box.call("GET", "/api/v1/me", { token: emp })).status).toBe(200);
    box.clock.advance(5 * 60_000);
    expect((await box.call("GET", "/api/v1/me", { token: emp })).status).toBe(200);
    box.clock.advance(6 * 60_000 + 31_000);
    const idle = await box.call("GET", "/api/v1/me", { token: emp });
    expect(idle.status).toBe(401);
    expect(idle.json.message).toBe("Employee session ended after 6 minutes without activity; enter your PIN");
    // The session is over for good, and the shop session is untouched.
    box.clock.advance(-10 * 60_000);
    expect((await box.call("GET", "/api/v1/me", { token: emp })).status).toBe(401);
    expect((await box.call("GET", "/api/v1/me", { token: agent })).status).toBe(200);
    expect((await pinLogin(agent, ADMIN.pin)).status).toBe(200);
  });

  test("a driver's session lasts 8 idle hours", async () => {
    box = await testBox();
    const agent = await box.agentToken();
    const admin = await box.employeeToken(ADMIN.pin, agent);
    await box.call("POST", "/api/v1/employees/", { token: admin, body: { full_name: "Road Driver", role: "driver", pin: "4444" } });
    const driver = await box.employeeToken("4444", agent);
    box.clock.advance(7 * 60_000);
    expect((await box.call("GET", "/api/v1/me", { token: driver })).status).toBe(200);
    expect((await box.call("GET", "/api/v1/me", { token: admin })).status).toBe(401);
    box.clock.advance(8 * 3600_000 + 31_000);
    expect((await box.call("GET", "/api/v1/me", { token: driver })).json.message).toMatch(/^Employee session ended after 480 minutes/);
  });

  test("last activity is written at most every 30 s, not on every request", async () => {
    box = await testBox();
    const emp = await box.employeeToken(ADMIN.pin);
    const seen = async () => (await box.database.client.execute("SELECT last_seen_at FROM sessions WHERE kind = 'employee'")).rows[0]!.last_seen_at;
    for (let i = 0; i < 3; i++) {
      box.clock.advance(9_000);
      await box.call("GET", "/api/v1/me", { token: emp });
    }
    expect(await seen()).toBeNull();
    box.clock.advance(4_000);
    await box.call("GET", "/api/v1/me", { token: emp });
    expect(await seen()).toBe(box.clock.now().toISOString());
  });

  test("a session check that is not activity (an event stream's) does not keep the session alive", async () => {
    box = await testBox();
    const auth = await authOn(box);
    const emp = await box.employeeToken(ADMIN.pin);
    for (let i = 0; i < 13; i++) {
      box.clock.advance(30_000);
      expect((await auth.authenticate(`token ${emp}`, { activity: false })).kind).toBe("employee");
    }
    box.clock.advance(60_000);
    expect(await statusOf(auth.authenticate(`token ${emp}`, { activity: false }))).toBe(401);
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
  const body = { agent_name: "Ironbox Sliema", user_name: "sliema", password: "sliema-pass-1", full_name: "Rita Spiteri", pin: "0357" };
  const codeOf = (b: TestBox) => readFileSync(join(b.dir, "setup-code"), "utf8").trim();

  test("an empty box reports setup_required and accepts one setup with its one-time code, then refuses another", async () => {
    box = await testBox({ admin: false });
    expect((await box.call("GET", "/api/v1/health")).json.data).toMatchObject({ database: "ok", setup_required: true });
    const file = join(box.dir, "setup-code");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const code = codeOf(box);
    expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect((await box.call("POST", "/api/v1/setup", { body: { ...body, setup_code: code.toLowerCase().replaceAll("-", " ") } })).status).toBe(200);
    expect(existsSync(file)).toBe(false);
    expect((await box.call("GET", "/api/v1/health")).json.data.setup_required).toBe(false);
    expect((await box.call("POST", "/api/v1/setup", { body: { ...body, user_name: "again", setup_code: code } })).status).toBe(409);
    const t = await box.employeeToken("0357", await box.agentToken("sliema", "sliema-pass-1"));
    expect(decode(t)).toMatchObject({ role: "admin", hq: true, employee_name: "Rita Spiteri" });
  });

  test("without the code, or with a wrong one, nobody claims the box; 5 wrong codes make that client wait", async () => {
    box = await testBox({ admin: false });
    const missing = await box.call("POST", "/api/v1/setup", { body });
    expect(missing.status).toBe(422);
    expect(missing.json.message).toContain("setup_code");
    for (let i = 0; i < 5; i++) {
      const r = await box.call("POST", "/api/v1/setup", { body: { ...body, setup_code: `WRONG-CODE-${i}` } });
      expect(r.status).toBe(403);
      expect(r.json.message).toMatch(/^Setup code is wrong/);
    }
    expect((await box.call("POST", "/api/v1/setup", { body: { ...body, setup_code: codeOf(box) } })).status).toBe(429);
    expect((await box.call("GET", "/api/v1/health")).json.data.setup_required).toBe(true);
    box.clock.advance(15 * 60_000 + 1000);
    expect((await box.call("POST", "/api/v1/setup", { body: { ...body, setup_code: codeOf(box) } })).status).toBe(200);
  });

  test("a box set up from IRONBOX_ADMIN_* makes no code", async () => {
    box = await testBox();
    expect(existsSync(join(box.dir, "setup-code"))).toBe(false);
    expect((await box.call("POST", "/api/v1/setup", { body: { ...body, setup_code: "ABCD-EFGH-JKMN" } })).status).toBe(409);
  });
});
