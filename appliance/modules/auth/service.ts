import { randomUUID } from "node:crypto";
import { and, count, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { prepared } from "../../../db/prepared";
import { agents, authFailures, employees, sessions } from "../../../db/schema";
import { conflict, tooMany, unauthorized, unprocessable } from "../../platform/errors";
import type { AgentCaller, Caller, EmployeeCaller, Role } from "./caller";
import type { Clock } from "../../platform/clock";
import { audit } from "../audit/audit";
import { hashPassword, hashPin, verifyPassword } from "./secrets";
import { type Claims, PIN_FORMAT } from "./model";
import { signToken, verifyToken } from "./tokens";
import { PASSWORD_WINDOW_MS, type Tx, inWords, passwordLock } from "./lockout";

/** Session lengths: an agent session is the shop's device login; an employee one a shift. */
export const AGENT_TOKEN_SECONDS = 30 * 24 * 3600;
export const EMPLOYEE_TOKEN_SECONDS = 12 * 3600;
export { MAX_WRONG_PASSWORDS, PASSWORD_WINDOW_MS } from "./lockout";
/** Wrong PINs per agent (shop), from any tablet. */
export const MAX_WRONG_PINS = 5;
export const PIN_LOCK_MS = 15 * 60_000;
const PIN_LOCKED = "Employee login locked after 5 wrong PINs; ask a manager to unlock it or wait 15 minutes";
/** Spec §6 idle timeout, in minutes (README): drivers on the road 8 hours, the counter 6 minutes. */
export const IDLE_MINUTES = { driver: 480, default: 6 } as const;
/**
 * An employee session's last activity is written at most this often: every write takes the
 * box's one write lock, and the counter sends many requests a minute. The idle limit is
 * enforced with this much grace, so a session never ends before its limit.
 */
export const SEEN_EVERY_MS = 30_000;

export const idleMinutes = (role: string) => (role === "driver" ? IDLE_MINUTES.driver : IDLE_MINUTES.default);

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

  /**
   * Records a login attempt as a failure before the secret is checked, inside one write (the
   * box's write lock): parallel guesses cannot all pass the count and then be verified.
   * `admit` reads the recent failures in the same transaction and throws to refuse.
   * A right secret then removes the row again (`forget`), leaving every other failure.
   */
  function reserveAttempt(kind: "password" | "pin" | "token", agentId: number, client: string, admit: (tx: Tx, since: string) => Promise<void>) {
    return db.transaction(async (tx) => {
      await admit(tx, new Date(clock.now().getTime() - (kind === "pin" ? PIN_LOCK_MS : PASSWORD_WINDOW_MS)).toISOString());
      const [row] = await tx.insert(authFailures).values({ kind, agent_id: agentId, client, at: nowIso() }).returning({ id: authFailures.id });
      return row!.id;
    });
  }
  const forget = (attempt: number, tx: Pick<Db, "delete"> = db) => tx.delete(authFailures).where(eq(authFailures.id, attempt));

  /**
   * A PIN attempt against an agent: refused while the agent has 5 uncleared wrong PINs in
   * 15 minutes (whoever made them, from whichever tablet). A manager's unlock clears them all,
   * the tablet that made them included (issue 22: it no longer waits after the unlock); the
   * shop lock still allows at most 5 guesses per unlock, and each unlock is audited.
   */
  const reservePin = (agentId: number, tablet: string) =>
    reserveAttempt("pin", agentId, tablet, async (tx, since) => {
      const [shop] = await tx
        .select({ n: count() })
        .from(authFailures)
        .where(and(eq(authFailures.kind, "pin"), eq(authFailures.agent_id, agentId), gt(authFailures.at, since), isNull(authFailures.cleared_at)));
      if ((shop?.n ?? 0) >= MAX_WRONG_PINS) throw tooMany(PIN_LOCKED);
    });

  /**
   * The employee of this agent whose PIN this is. PINs stored before they became digit
   * strings (pin_legacy) were hashed from the number, leading zeros lost: "0123" is also
   * tried as "123" among those.
   */
  async function findByPin(agentId: number, pin: string) {
    // Archived staff have no PIN hash a PIN matches (issue 22); the filter says so twice.
    const current = and(eq(employees.agent_id, agentId), isNull(employees.archived_at));
    const exact = await db.query.employees.findFirst({ where: and(current, eq(employees.pin_hash, hashPin(secret, agentId, pin))) });
    const legacy = String(Number(pin));
    if (exact || legacy === pin) return exact;
    return db.query.employees.findFirst({
      where: and(current, eq(employees.pin_legacy, true), eq(employees.pin_hash, hashPin(secret, agentId, legacy))),
    });
  }

  /** A right PIN: its attempt is no failure, and a legacy PIN is re-hashed from the digits typed. */
  const pinAccepted = (attempt: number, e: typeof employees.$inferSelect, pin: string) =>
    db.transaction(async (tx) => {
      await forget(attempt, tx);
      if (e.pin_legacy)
        await tx
          .update(employees)
          .set({ pin_hash: hashPin(secret, e.agent_id, pin), pin_legacy: false })
          .where(eq(employees.id, e.id));
    });

  /** The tablet a PIN is typed on: its agent (shop) session. */
  const tabletOf = async (caller: AgentCaller) => (caller.kind === "agent" ? caller.jti : ((await parentOf(caller.jti)) ?? caller.jti));

  const clearFailures = (kind: "password" | "pin", agentId: number, client?: string) =>
    db
      .update(authFailures)
      .set({ cleared_at: nowIso() })
      .where(
        and(
          eq(authFailures.kind, kind),
          eq(authFailures.agent_id, agentId),
          client === undefined ? undefined : eq(authFailures.client, client),
          isNull(authFailures.cleared_at),
        ),
      );

  return {
    /**
     * Wrong passwords are counted per (user name, client address), whether or not the name
     * exists, and answered alike: the answers do not tell which names exist, and a stranger
     * elsewhere on the network cannot lock the shop out. 5 free tries, then a wait of 1 s
     * doubling, and 10 within 15 minutes lock that pair until the window passes.
     */
    async loginAgent(userName: string, password: string, client: string): Promise<string> {
      const name = userName.trim();
      const agent = await db.query.agents.findFirst({ where: eq(agents.user_name, name) });
      const agentId = agent?.id ?? 0;
      const key = `${client} ${name}`;
      const attempt = await reserveAttempt(
        "password",
        agentId,
        key,
        passwordLock(
          clock,
          agentId,
          key,
          (wait) => `Agent login paused after too many wrong passwords for this user name from this device; try again in ${inWords(wait)}`,
        ),
      );
      // An unknown name is verified against a dummy hash, so timing does not tell either.
      const right = await verifyPassword(password, agent?.password_hash ?? (await DUMMY_HASH));
      if (!agent?.password_hash || !right) throw unauthorized("Agent user name or password is wrong");
      await clearFailures("password", agentId, key);
      if (!agent.enabled) throw unauthorized("Agent is disabled");
      const { jti, exp } = await openSession("agent", agent.id, null, null, AGENT_TOKEN_SECONDS);
      return signToken(secret, { kind: "agent", agent_id: agent.id, agent_name: agent.name, jti, exp });
    },

    /**
     * A PIN alone does not say whose it is, so wrong PINs are counted per agent (the shop):
     * 5 within 15 minutes lock PIN login for that agent until they expire or a manager or
     * admin already logged in lifts the lock. A right PIN clears nobody's failures (see README).
     */
    async loginEmployee(caller: AgentCaller, pin: string): Promise<string> {
      const agentId = caller.agent.id;
      const tablet = await tabletOf(caller);
      const attempt = await reservePin(agentId, tablet);
      const employee = await findByPin(agentId, pin);
      if (!employee || !employee.enable_login) throw unauthorized("Employee PIN is incorrect");
      await pinAccepted(attempt, employee, pin);
      const { jti, exp } = await openSession("employee", agentId, employee.id, tablet, EMPLOYEE_TOKEN_SECONDS);
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
      const attempt = await reservePin(agentId, client);
      const e = await findByPin(agentId, pin);
      if (!e || !e.enable_login || (e.role !== "manager" && e.role !== "admin")) return null;
      await pinAccepted(attempt, e, pin);
      return { id: e.id, full_name: e.full_name, role: e.role };
    },

    /**
     * The hash to store for an employee's new PIN. A PIN another employee of the agent has is
     * refused without saying whose, and the refusal counts as a wrong PIN toward the agent's
     * lock: trying PINs here finds colleagues' PINs no faster than the login screen.
     */
    async newPinHash(caller: EmployeeCaller, agentId: number, pin: string, employeeId?: number): Promise<string> {
      const attempt = await reservePin(agentId, await tabletOf(caller));
      const holder = await findByPin(agentId, pin);
      if (holder && holder.id !== employeeId) throw conflict("This PIN cannot be used; choose another");
      await forget(attempt);
      return hashPin(secret, agentId, pin);
    },

    /**
     * Another box's enrolment token (HQ's reference snapshot, issue 22), locked out per client
     * address like passwords: the attempt is recorded before `right` runs, a right token
     * removes it again, and 10 wrong ones in 15 minutes answer 429 until the window passes.
     */
    async checkPeerToken(client: string, right: () => boolean): Promise<void> {
      const attempt = await reserveAttempt(
        "token",
        0,
        client,
        passwordLock(clock, 0, client, (wait) => `Too many wrong enrolment tokens from this address; try again in ${inWords(wait)}`, "token"),
      );
      if (!right()) throw unauthorized("Token: the enrolment token is missing or wrong");
      await forget(attempt);
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
      db
        .update(sessions)
        .set({ revoked_at: nowIso() })
        .where(and(eq(sessions.employee_id, employeeId), isNull(sessions.revoked_at))),
    revokeAgentSessions: (agentId: number) =>
      db
        .update(sessions)
        .set({ revoked_at: nowIso() })
        .where(and(eq(sessions.agent_id, agentId), isNull(sessions.revoked_at))),

    /**
     * Turns an Authorization header into a caller. Role and HQ flag come from the database,
     * not the token, so a change (or a disabled user) takes effect on the next request.
     * A request is the employee's activity for the idle timeout; a check that is not
     * (an open event stream asking whether its session still lives) passes `activity: false`.
     */
    async authenticate(header: string | null, opts: { activity?: boolean } = {}): Promise<Caller> {
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
      return v.claims.kind === "agent" ? agentCaller(v.claims) : employeeCaller(v.claims, opts.activity ?? true);
    },

    /** True while the box has no agent yet: the UI then shows the first-run setup. */
    async setupRequired(): Promise<boolean> {
      const [row] = await db.select({ n: count() }).from(agents);
      return (row?.n ?? 0) === 0;
    },

    /** Creates the HQ agent and its first admin (first-run screen or IRONBOX_ADMIN_*). */
    async createFirstAdmin(input: { agent_name: string; user_name: string; password: string; full_name: string; pin: string }) {
      if (!PIN_FORMAT.test(input.pin)) throw unprocessable("pin: must be 4 to 8 digits");
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
    const rows = await agentSession(db).all({ jti: c.jti });
    const r = rows[0];
    if (!r || r.revoked || !r.enabled) throw unauthorized("Agent session has ended; log in again");
    return { kind: "agent", jti: c.jti, agent: { id: r.id, name: r.name, is_hq: r.is_hq } };
  }

  async function employeeCaller(c: Extract<Claims, { kind: "employee" }>, activity: boolean): Promise<Caller> {
    const rows = await employeeSession(db).all({ jti: c.jti });
    const r = rows[0];
    if (!r) throw unauthorized("Token does not match any session");
    if (r.parentRevoked || !r.agentEnabled) throw unauthorized("Agent session has ended; log in again");
    if (r.revoked || !r.enabled || r.archived) throw unauthorized("Employee session has ended; enter your PIN");
    // Idle timeout on the box too (spec §6), so a copied token dies with the idle period.
    const idle = clock.now().getTime() - Date.parse(r.lastSeen ?? r.issued);
    if (idle > idleMinutes(r.role) * 60_000 + SEEN_EVERY_MS) {
      await db.update(sessions).set({ revoked_at: nowIso() }).where(eq(sessions.jti, c.jti));
      throw unauthorized(`Employee session ended after ${idleMinutes(r.role)} minutes without activity; enter your PIN`);
    }
    if (activity && idle >= SEEN_EVERY_MS) await db.update(sessions).set({ last_seen_at: nowIso() }).where(eq(sessions.jti, c.jti));
    return {
      kind: "employee",
      jti: c.jti,
      agent: { id: r.agentId, name: r.agentName, is_hq: r.isHq },
      employee: { id: r.id, full_name: r.fullName, role: r.role, hq: r.hq },
    };
  }
}

// Every request's session check (one read each), built once (db/prepared.ts): building the
// drizzle query cost more than running it.
const agentSession = prepared((db: Db) =>
  db
    .select({ revoked: sessions.revoked_at, id: agents.id, name: agents.name, is_hq: agents.is_hq, enabled: agents.enabled })
    .from(sessions)
    .innerJoin(agents, eq(agents.id, sessions.agent_id))
    .where(and(eq(sessions.jti, sql.placeholder("jti")), eq(sessions.kind, "agent")))
    .prepare(),
);
const employeeSession = prepared((db: Db) =>
  db
    .select({
      revoked: sessions.revoked_at,
      issued: sessions.issued_at,
      lastSeen: sessions.last_seen_at,
      parentRevoked: sql<string | null>`(SELECT revoked_at FROM sessions p WHERE p.jti = ${sessions.parent_jti})`,
      agentId: agents.id,
      agentName: agents.name,
      isHq: agents.is_hq,
      agentEnabled: agents.enabled,
      id: employees.id,
      fullName: employees.full_name,
      role: employees.role,
      hq: employees.hq,
      enabled: employees.enable_login,
      archived: employees.archived_at,
    })
    .from(sessions)
    .innerJoin(employees, eq(employees.id, sessions.employee_id))
    .innerJoin(agents, eq(agents.id, employees.agent_id))
    .where(and(eq(sessions.jti, sql.placeholder("jti")), eq(sessions.kind, "employee")))
    .prepare(),
);

export type AuthService = ReturnType<typeof createAuthService>;
