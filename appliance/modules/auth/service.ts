import { randomUUID } from "node:crypto";
import { and, count, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { agents, authFailures, employees, sessions } from "../../../db/schema";
import { conflict, tooMany, unauthorized } from "../../http/errors";
import type { AgentCaller, Caller, EmployeeCaller, Role } from "../../http/route";
import type { Clock } from "../../platform/clock";
import { audit } from "../audit/audit";
import { hashPassword, hashPin, verifyPassword } from "./secrets";
import { type Claims, signToken, verifyToken } from "./tokens";

/** Session lengths: an agent session is the shop's device login; an employee one a shift. */
export const AGENT_TOKEN_SECONDS = 30 * 24 * 3600;
export const EMPLOYEE_TOKEN_SECONDS = 12 * 3600;
/** QUALITY.md brute-force bounds. */
export const MAX_WRONG_PASSWORDS = 10;
export const PASSWORD_WINDOW_MS = 15 * 60_000;
export const MAX_WRONG_PINS = 5;
export const PIN_LOCK_MS = 15 * 60_000;

// Verified against when the user name is unknown, so timing does not reveal which names exist.
const DUMMY_HASH = hashPassword("ironbox-dummy-password");

export interface AuthDeps {
  db: Db;
  clock: Clock;
  secret: string;
}

export function createAuthService({ db, clock, secret }: AuthDeps) {
  const nowIso = () => clock.now().toISOString();
  const nowSec = () => Math.floor(clock.now().getTime() / 1000);

  async function openSession(kind: "agent" | "employee", agentId: number, employeeId: number | null, parentJti: string | null, seconds: number) {
    const jti = randomUUID();
    const exp = nowSec() + seconds;
    await db.insert(sessions).values({
      jti,
      kind,
      agent_id: agentId,
      employee_id: employeeId,
      parent_jti: parentJti,
      issued_at: nowIso(),
      expires_at: new Date(exp * 1000).toISOString(),
    });
    return { jti, exp };
  }

  async function recentFailures(kind: "password" | "pin", agentId: number, windowMs: number) {
    const since = new Date(clock.now().getTime() - windowMs).toISOString();
    const [row] = await db
      .select({ n: count() })
      .from(authFailures)
      .where(and(eq(authFailures.kind, kind), eq(authFailures.agent_id, agentId), gt(authFailures.at, since), isNull(authFailures.cleared_at)));
    return row?.n ?? 0;
  }

  const recordFailure = (kind: "password" | "pin", agentId: number) => db.insert(authFailures).values({ kind, agent_id: agentId, at: nowIso() });

  const clearFailures = (kind: "password" | "pin", agentId: number) =>
    db
      .update(authFailures)
      .set({ cleared_at: nowIso() })
      .where(and(eq(authFailures.kind, kind), eq(authFailures.agent_id, agentId), isNull(authFailures.cleared_at)));

  return {
    async loginAgent(userName: string, password: string): Promise<string> {
      const agent = await db.query.agents.findFirst({ where: eq(agents.user_name, userName.trim()) });
      if (!agent || !agent.password_hash) {
        await verifyPassword(password, await DUMMY_HASH);
        throw unauthorized("Agent user name or password is wrong");
      }
      if ((await recentFailures("password", agent.id, PASSWORD_WINDOW_MS)) >= MAX_WRONG_PASSWORDS) {
        throw tooMany("Agent login locked after too many wrong passwords; try again in 15 minutes");
      }
      if (!(await verifyPassword(password, agent.password_hash))) {
        await recordFailure("password", agent.id);
        throw unauthorized("Agent user name or password is wrong");
      }
      if (!agent.enabled) throw unauthorized("Agent is disabled");
      await clearFailures("password", agent.id);
      const { jti, exp } = await openSession("agent", agent.id, null, null, AGENT_TOKEN_SECONDS);
      return signToken(secret, { kind: "agent", agent_id: agent.id, agent_name: agent.name, jti, exp });
    },

    /**
     * A PIN alone does not say whose it is, so wrong PINs are counted per agent (the shop):
     * after 5 in a row PIN login for that agent is locked for 15 minutes or until a manager
     * or admin already logged in lifts it (see README).
     */
    async loginEmployee(caller: AgentCaller, pin: number): Promise<string> {
      const agentId = caller.agent.id;
      if ((await recentFailures("pin", agentId, PIN_LOCK_MS)) >= MAX_WRONG_PINS) {
        throw tooMany("Employee login locked after 5 wrong PINs; ask a manager to unlock it or wait 15 minutes");
      }
      const employee = await db.query.employees.findFirst({
        where: and(eq(employees.agent_id, agentId), eq(employees.pin_hash, hashPin(secret, agentId, pin))),
      });
      if (!employee || !employee.enable_login) {
        await recordFailure("pin", agentId);
        throw unauthorized("Employee PIN is incorrect");
      }
      await clearFailures("pin", agentId);
      const parent = caller.kind === "agent" ? caller.jti : await parentOf(caller.jti);
      const { jti, exp } = await openSession("employee", agentId, employee.id, parent, EMPLOYEE_TOKEN_SECONDS);
      return signToken(secret, {
        kind: "employee",
        employee_id: employee.id,
        role: employee.role,
        hq: employee.hq,
        employee_name: employee.full_name,
        agent_name: caller.agent.name,
        agent_id: agentId,
        jti,
        exp,
      });
    },

    /**
     * A manager's approval typed on another employee's tablet (issue 11): the PIN of an
     * enabled manager or admin of this agent, or null. It counts toward the agent's PIN lock
     * exactly like a login attempt (a wrong PIN is a failure, a lock answers 429), so the
     * approval dialog cannot be used to guess PINs.
     */
    async verifyApproverPin(agentId: number, pin: string, client: string) {
      if ((await recentFailures("pin", agentId, PIN_LOCK_MS)) >= MAX_WRONG_PINS) {
        throw tooMany("Employee login locked after 5 wrong PINs; ask a manager to unlock it or wait 15 minutes");
      }
      const e = await db.query.employees.findFirst({ where: and(eq(employees.agent_id, agentId), eq(employees.pin_hash, hashPin(secret, agentId, pin))) });
      if (!e || !e.enable_login || (e.role !== "manager" && e.role !== "admin")) {
        await db.insert(authFailures).values({ kind: "pin", agent_id: agentId, client, at: nowIso() });
        return null;
      }
      return { id: e.id, full_name: e.full_name, role: e.role };
    },

    async unlockPins(caller: EmployeeCaller): Promise<void> {
      await clearFailures("pin", caller.agent.id);
      await audit(db, clock.now(), caller, "unlock_pins", "agent", caller.agent.id);
    },

    /** Ends the shop session and every employee session opened in it. */
    async logoutAgent(caller: AgentCaller): Promise<void> {
      const agentJti = caller.kind === "agent" ? caller.jti : await parentOf(caller.jti);
      const ids = [caller.jti, agentJti].filter((j): j is string => !!j);
      for (const jti of ids) {
        await db
          .update(sessions)
          .set({ revoked_at: nowIso() })
          .where(and(or(eq(sessions.jti, jti), eq(sessions.parent_jti, jti)), isNull(sessions.revoked_at)));
      }
    },

    async logoutEmployee(caller: EmployeeCaller): Promise<void> {
      await db.update(sessions).set({ revoked_at: nowIso() }).where(eq(sessions.jti, caller.jti));
    },

    revokeEmployeeSessions: (employeeId: number) =>
      db.update(sessions).set({ revoked_at: nowIso() }).where(and(eq(sessions.employee_id, employeeId), isNull(sessions.revoked_at))),
    revokeAgentSessions: (agentId: number) =>
      db.update(sessions).set({ revoked_at: nowIso() }).where(and(eq(sessions.agent_id, agentId), isNull(sessions.revoked_at))),

    /**
     * Turns an Authorization header into a caller. Role and HQ flag come from the database,
     * not the token, so a change (or a disabled user) takes effect on the next request.
     */
    async authenticate(header: string | null): Promise<Caller> {
      if (!header) return { kind: "none" };
      const m = /^token\s+(\S+)$/i.exec(header.trim());
      if (!m) throw unauthorized("Token missing from the Authorization header (expected: token <jwt>)");
      const v = verifyToken(secret, m[1]!, nowSec());
      if (!v.ok) {
        if (v.reason === "expired") {
          throw v.claims?.kind === "employee" ? unauthorized("Employee session expired") : unauthorized("Agent session expired");
        }
        throw unauthorized("Token is not valid");
      }
      return v.claims.kind === "agent" ? agentCaller(v.claims) : employeeCaller(v.claims);
    },

    /** True while the box has no agent yet: the UI then shows the first-run setup. */
    async setupRequired(): Promise<boolean> {
      const [row] = await db.select({ n: count() }).from(agents);
      return (row?.n ?? 0) === 0;
    },

    /** Creates the HQ agent and its first admin (first-run screen or IRONBOX_ADMIN_*). */
    async createFirstAdmin(input: { agent_name: string; user_name: string; password: string; full_name: string; pin: string | number }) {
      const passwordHash = await hashPassword(input.password);
      return db.transaction(async (tx) => {
        const [existing] = await tx.select({ n: count() }).from(agents);
        if ((existing?.n ?? 0) > 0) throw conflict("This box is already set up");
        const [agent] = await tx
          .insert(agents)
          .values({ name: input.agent_name, user_name: input.user_name.trim(), password_hash: passwordHash, is_hq: true, type: "HQ" })
          .returning();
        const [employee] = await tx
          .insert(employees)
          .values({ agent_id: agent!.id, full_name: input.full_name, role: "admin" as Role, hq: true, pin_hash: hashPin(secret, agent!.id, input.pin) })
          .returning();
        await audit(tx, clock.now(), { kind: "none" }, "first_run_setup", "agent", agent!.id, { employee_id: employee!.id });
        return { agentId: agent!.id, employeeId: employee!.id };
      });
    },
  };

  async function parentOf(jti: string): Promise<string | null> {
    const row = await db.query.sessions.findFirst({ where: eq(sessions.jti, jti), columns: { parent_jti: true } });
    return row?.parent_jti ?? null;
  }

  async function agentCaller(c: Extract<Claims, { kind: "agent" }>): Promise<Caller> {
    const rows = await db
      .select({ revoked: sessions.revoked_at, id: agents.id, name: agents.name, is_hq: agents.is_hq, enabled: agents.enabled })
      .from(sessions)
      .innerJoin(agents, eq(agents.id, sessions.agent_id))
      .where(and(eq(sessions.jti, c.jti), eq(sessions.kind, "agent")));
    const r = rows[0];
    if (!r || r.revoked || !r.enabled) throw unauthorized("Agent session has ended; log in again");
    return { kind: "agent", jti: c.jti, agent: { id: r.id, name: r.name, is_hq: r.is_hq } };
  }

  async function employeeCaller(c: Extract<Claims, { kind: "employee" }>): Promise<Caller> {
    const parent = sql<string | null>`(SELECT revoked_at FROM sessions p WHERE p.jti = ${sessions.parent_jti})`;
    const rows = await db
      .select({
        revoked: sessions.revoked_at,
        parentRevoked: parent,
        agentId: agents.id,
        agentName: agents.name,
        isHq: agents.is_hq,
        agentEnabled: agents.enabled,
        id: employees.id,
        fullName: employees.full_name,
        role: employees.role,
        hq: employees.hq,
        enabled: employees.enable_login,
      })
      .from(sessions)
      .innerJoin(employees, eq(employees.id, sessions.employee_id))
      .innerJoin(agents, eq(agents.id, employees.agent_id))
      .where(and(eq(sessions.jti, c.jti), eq(sessions.kind, "employee")));
    const r = rows[0];
    if (!r) throw unauthorized("Token does not match any session");
    if (r.parentRevoked || !r.agentEnabled) throw unauthorized("Agent session has ended; log in again");
    if (r.revoked || !r.enabled) throw unauthorized("Employee session has ended; enter your PIN");
    return {
      kind: "employee",
      jti: c.jti,
      agent: { id: r.agentId, name: r.agentName, is_hq: r.isHq },
      employee: { id: r.id, full_name: r.fullName, role: r.role, hq: r.hq },
    };
  }
}

export type AuthService = ReturnType<typeof createAuthService>;
