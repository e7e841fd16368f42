import { randomUUID } from "node:crypto";
import { and, desc, eq, inArray, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { employeeOwings, employees } from "../../../db/schema";
import { percentOfCents } from "../../domain/money";
import { conflict, forbidden, notFound, unprocessable } from "../../platform/errors";
import { agentScope, assertSameAgent, isHqStaff } from "../auth/caller";
import type { EmployeeCaller, Role } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { audit } from "../audit/audit";
import type { AuthService } from "../auth/service";
import { agentNames } from "../agents/service";
import { unknownLocalityIds } from "../places/service";
import { namesEmployee as inAudit } from "../audit/reads";
import { namesEmployee as inSessions } from "../auth/reads";
import { namesEmployee as inImages } from "../images/reads";
import { namesEmployee as inMessaging } from "../messaging/reads";
import { namesEmployee as inPrinting } from "../printing/reads";
import { namesEmployee as inTickets } from "../tickets/reads";
import type { EmployeeInput } from "./model";

type Row = typeof employees.$inferSelect;

/** Who outranks whom: an employee changes and grants only roles up to their own. */
const RANK: Record<Role, number> = { admin: 3, manager: 2, employee: 1, driver: 0 };

/** Spec §3: the amount received is amount × percentage / 100, to the cent. */
export const owingReceived = (amountCents: number, percentage: number) => percentOfCents(amountCents, percentage);

const owingOut = (o: typeof employeeOwings.$inferSelect) => ({ ...o, received: owingReceived(o.amount, o.percentage) });

/** An employee as the service answers it (money in cents): the PIN hash never leaves the box. */
export function employeeOut(e: Row, agent?: { id: number; name: string } | null) {
  const { pin_hash, created_at, ...rest } = e;
  return { ...rest, ...(agent ? { agent } : {}) };
}
export type EmployeeRecord = ReturnType<typeof employeeOut> & { employee_owings?: ReturnType<typeof owingOut>[] };

type Reader = Pick<Db, "select">;

/** Whether one of this module's own owings names the employee. */
async function inOwings(db: Reader, id: number) {
  const [r] = await db.select({ one: employeeOwings.employee_id }).from(employeeOwings).where(eq(employeeOwings.employee_id, id)).limit(1);
  return r !== undefined;
}

/**
 * Cash an employee or driver took for the shop (money decides when, money/pay.ts): an open
 * owing of 100 %, added to their pending figure until cleared. In the caller's transaction.
 */
export async function recordOwing(
  q: Pick<Db, "insert" | "update">,
  o: { ticket_id: number; employee_id: number; item_id: number | null; cents: number; at: string },
) {
  await q.insert(employeeOwings).values({
    ticket_id: o.ticket_id,
    employee_id: o.employee_id,
    ticket_sub_category_id: o.item_id,
    amount: o.cents,
    percentage: 100,
    payment_date: o.at,
    state: "OPEN",
  });
  await q
    .update(employees)
    .set({ pending: sql`${employees.pending} + ${o.cents}` })
    .where(eq(employees.id, o.employee_id));
}

/**
 * Everything that names an employee, each asked of the module that owns it (issue 23), sessions
 * first (anyone who did anything logged in): an employee found in any of them keeps their
 * record so history keeps its names.
 */
const HISTORY: ((db: Reader, id: number) => Promise<boolean>)[] = [inSessions, inTickets, inOwings, inPrinting, inMessaging, inAudit, inImages];

export function createEmployeeService({ db, clock, auth }: { db: Db; clock: Clock; auth: AuthService }) {
  async function load(caller: EmployeeCaller, id: number) {
    const e = await db.query.employees.findFirst({ where: eq(employees.id, id) });
    if (!e) throw notFound("Employee");
    assertSameAgent(caller, e.agent_id, "Employee");
    return e;
  }

  /**
   * The employee a change is aimed at, if the caller may change them (issue 22): an employee
   * with the HQ flag is head-quarters staff, changed only by HQ staff, so a shop's admin cannot
   * re-PIN an area manager of their shop and log in as head office; and nobody changes someone
   * whose role is above their own.
   */
  async function loadForChange(caller: EmployeeCaller, id: number) {
    const e = await load(caller, id);
    if (e.hq && !isHqStaff(caller)) throw forbidden("Only head-quarters staff may change an employee with the HQ flag");
    if (RANK[e.role] > RANK[caller.employee.role]) throw forbidden("You cannot change an employee whose role is above your own");
    return e;
  }

  /**
   * Nobody grants more than they have: a role above their own, or the HQ flag (which only an
   * admin of the head-quarters agent may grant; keeping it on someone who has it is no grant).
   */
  function checkPrivileges(caller: EmployeeCaller, input: Partial<EmployeeInput>, current?: Row) {
    if (input.hq && !current?.hq && !caller.agent.is_hq) throw forbidden("Only head-quarters may grant the HQ flag");
    if (input.role && RANK[input.role] > RANK[caller.employee.role]) throw forbidden("You cannot give a role above your own");
  }

  async function validLocalities(list: string) {
    const ids = list
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .map(Number);
    if (ids.some((n) => !Number.isInteger(n) || n <= 0)) throw unprocessable("localities: must be comma-separated locality ids");
    if ((await unknownLocalityIds(db, ids)).length) throw unprocessable("localities: unknown locality id");
    return [...new Set(ids)].join(",");
  }

  return {
    /** Current staff, or with `archived` the archived ones (issue 22); the scheduler's driver picker reads this list too. */
    async list(caller: EmployeeCaller, archived = false) {
      const scope = agentScope(caller);
      const rows = await db
        .select()
        .from(employees)
        .where(and(scope ? inArray(employees.agent_id, scope) : undefined, archived ? isNotNull(employees.archived_at) : isNull(employees.archived_at)))
        .orderBy(employees.full_name);
      // Every employee has an agent (a foreign key): the names come from the agents module.
      const agent = await agentNames(
        db,
        rows.map((e) => e.agent_id),
      );
      return rows.flatMap((e) => (agent.has(e.agent_id) ? [employeeOut(e, agent.get(e.agent_id))] : []));
    },

    /**
     * Id and name of the employees the caller's shop may see (HQ: every shop's), by name.
     * Archived staff stay here: this is the State Logs filter, and their changes stay in the logs.
     */
    async names(caller: EmployeeCaller) {
      const scope = agentScope(caller);
      const rows = await db
        .select({ id: employees.id, full_name: employees.full_name, agent_id: employees.agent_id })
        .from(employees)
        .where(scope ? inArray(employees.agent_id, scope) : undefined)
        .orderBy(employees.full_name, employees.id);
      const agent = await agentNames(
        db,
        rows.map((e) => e.agent_id),
      );
      return rows.flatMap((e) => {
        const a = agent.get(e.agent_id);
        return a ? [{ ...e, agent: a.name }] : [];
      });
    },

    /** Owings are part of employee and driver records only (spec §6). */
    async get(caller: EmployeeCaller, id: number) {
      const e = await load(caller, id);
      const agent = (await agentNames(db, [e.agent_id])).get(e.agent_id);
      const out: EmployeeRecord = employeeOut(e, agent);
      if (e.role !== "employee" && e.role !== "driver") return out;
      const owings = await db
        .select()
        .from(employeeOwings)
        .where(and(eq(employeeOwings.employee_id, id), ne(employeeOwings.state, "CLOSED")))
        .orderBy(desc(employeeOwings.id))
        .limit(500);
      return { ...out, employee_owings: owings.map(owingOut) };
    },

    /**
     * Settles the employee's open owings: each OPEN owing is marked paid in full today and
     * its received amount moves from pending to accumulated. With close=true the settled
     * owings are also CLOSED and the accumulated figure starts again from 0 (a new period).
     */
    async clearOwings(caller: EmployeeCaller, id: number, close: boolean) {
      await loadForChange(caller, id);
      const now = clock.now().toISOString();
      await db.transaction(async (tx) => {
        const open = await tx
          .select()
          .from(employeeOwings)
          .where(and(eq(employeeOwings.employee_id, id), eq(employeeOwings.state, "OPEN")));
        const settled = open.reduce((s, o) => s + owingReceived(o.amount, o.percentage), 0);
        if (open.length) {
          await tx
            .update(employeeOwings)
            .set({ state: "CLEARED", paid_in_full: true, employee_payment_date: now })
            .where(
              inArray(
                employeeOwings.id,
                open.map((o) => o.id),
              ),
            );
        }
        const e = (await tx.query.employees.findFirst({ where: eq(employees.id, id) }))!;
        let accumulated = e.accumulated + settled;
        if (close) {
          await tx
            .update(employeeOwings)
            .set({ state: "CLOSED" })
            .where(and(eq(employeeOwings.employee_id, id), eq(employeeOwings.state, "CLEARED")));
          accumulated = 0;
        }
        await tx
          .update(employees)
          .set({ pending: Math.max(0, e.pending - settled), accumulated })
          .where(eq(employees.id, id));
        await audit(tx, clock.now(), caller, close ? "clear_and_close_owings" : "clear_owings", "employee", id, {
          owings: open.length,
          settled_cents: settled,
        });
      });
      return true;
    },

    async create(caller: EmployeeCaller, input: EmployeeInput) {
      checkPrivileges(caller, input);
      const agentId = input.agent_id ?? caller.agent.id;
      assertSameAgent(caller, agentId, "Agent");
      if (!(await agentNames(db, [agentId])).has(agentId)) throw unprocessable("agent_id: unknown agent");
      if (input.pin === undefined) throw unprocessable("pin: is required");
      const { pin, ...values } = input;
      const locs = input.localities !== undefined ? await validLocalities(input.localities) : "";
      const pinHash = await auth.newPinHash(caller, agentId, pin);
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(employees)
          .values({ ...values, localities: locs, agent_id: agentId, pin_hash: pinHash })
          .returning();
        await audit(tx, clock.now(), caller, "create", "employee", row!.id, { role: row!.role });
        return employeeOut(row!);
      });
    },

    async update(caller: EmployeeCaller, id: number, input: Partial<EmployeeInput>) {
      const current = await loadForChange(caller, id);
      checkPrivileges(caller, input, current);
      if (current.archived_at) throw conflict("Employee is archived; restore them first");
      if (input.agent_id !== undefined && input.agent_id !== current.agent_id) {
        throw unprocessable("agent_id: an employee cannot move to another agent; create a new one");
      }
      if (id === caller.employee.id && (input.enable_login === false || (input.role && input.role !== "admin"))) {
        throw unprocessable("You cannot disable yourself or remove your own admin role");
      }
      const { pin, agent_id, ...values } = input;
      const set: Partial<Row> = { ...values };
      if (input.localities !== undefined) set.localities = await validLocalities(input.localities);
      if (pin !== undefined) Object.assign(set, { pin_hash: await auth.newPinHash(caller, current.agent_id, pin, id), pin_legacy: false });
      const row = await db.transaction(async (tx) => {
        const [row] = Object.keys(set).length ? await tx.update(employees).set(set).where(eq(employees.id, id)).returning() : [current];
        await audit(tx, clock.now(), caller, "update", "employee", id, {
          fields: Object.keys(input).filter((k) => k !== "pin"),
          pin_changed: pin !== undefined,
        });
        return row!;
      });
      // Disabled staff lose their sessions at once (QUALITY.md).
      if (input.enable_login === false || pin !== undefined) await auth.revokeEmployeeSessions(id);
      return employeeOut(row);
    },

    /** Spec §4: selecting a locality already present removes it, otherwise adds it. */
    async toggleLocalities(caller: EmployeeCaller, id: number, ids: number[]) {
      const current = await loadForChange(caller, id);
      if (current.archived_at) throw conflict("Employee is archived; restore them first");
      const have = new Set(current.localities.split(",").filter(Boolean).map(Number));
      for (const l of ids) have.has(l) ? have.delete(l) : have.add(l);
      const list = await validLocalities([...have].join(","));
      const [row] = await db.update(employees).set({ localities: list }).where(eq(employees.id, id)).returning();
      return employeeOut(row!);
    },

    /**
     * Staff without history are removed. Staff with history are archived instead (issue 22),
     * so every ticket, log and report keeps their name: gone from the lists, their sessions
     * ended at once, and their PIN hash replaced by a value no PIN hashes to, so the PIN is
     * free for someone else and no hash of it stays behind.
     */
    async remove(caller: EmployeeCaller, id: number) {
      const e = await loadForChange(caller, id);
      if (id === caller.employee.id) throw conflict("You cannot remove yourself");
      if (e.archived_at) throw conflict("Employee is already archived");
      await db.transaction(async (tx) => {
        for (const namedIn of HISTORY) {
          if (!(await namedIn(tx, id))) continue;
          await tx
            .update(employees)
            .set({ archived_at: clock.now().toISOString(), pin_hash: `archived:${randomUUID()}`, pin_legacy: false })
            .where(eq(employees.id, id));
          await audit(tx, clock.now(), caller, "archive", "employee", id, { full_name: e.full_name });
          return;
        }
        await tx.delete(employees).where(eq(employees.id, id));
        await audit(tx, clock.now(), caller, "delete", "employee", id, { full_name: e.full_name });
      });
      await auth.revokeEmployeeSessions(id);
      return true;
    },

    /**
     * Brings an archived employee back. Their old PIN was freed when they were archived, so
     * they log in again once a new PIN is set (here or by editing them).
     */
    async restore(caller: EmployeeCaller, id: number, pin?: string) {
      const e = await loadForChange(caller, id);
      if (!e.archived_at) throw conflict("Employee is not archived");
      const pinHash = pin === undefined ? undefined : await auth.newPinHash(caller, e.agent_id, pin, id);
      const row = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(employees)
          .set({ archived_at: null, ...(pinHash ? { pin_hash: pinHash } : {}) })
          .where(eq(employees.id, id))
          .returning();
        await audit(tx, clock.now(), caller, "restore", "employee", id, { pin_changed: pin !== undefined });
        return row!;
      });
      return employeeOut(row);
    },
  };
}
export type EmployeeService = ReturnType<typeof createEmployeeService>;
