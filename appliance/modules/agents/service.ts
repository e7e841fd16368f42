import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { agents } from "../../../db/schema";
import { conflict, forbidden, notFound, unprocessable } from "../../platform/errors";
import { agentScope, assertSameAgent } from "../auth/caller";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { audit, changes } from "../audit/audit";
import { hashPassword } from "../auth/secrets";
import type { AuthService } from "../auth/service";
import type { PlaceService } from "../places/service";
import { dropAgentSessions } from "../auth/reads";
import { namesAgent as hasCustomers } from "../customers/reads";
import { namesAgent as hasEmployees } from "../employees/reads";
import { releaseAgentImages } from "../images/reads";
import { namedAddresses, releaseAgentAddresses } from "../places/reads";
import { namesAgent as hasTickets } from "../tickets/reads";
import type { AgentInput, PasswordInput } from "./model";

type AgentRow = typeof agents.$inferSelect;

/** The terms of the franchise: head quarters sets them; a shop's admin edits the rest of its agent. */
const HQ_TERMS = ["commission", "type", "user_name", "can_see_action"] as const;

/** The API shape of an agent: never the password hash. */
export function agentOut(a: AgentRow, address?: unknown) {
  const { password_hash, created_at, ...rest } = a;
  return { ...rest, password_set: !!password_hash, ...(address !== undefined ? { address } : {}) };
}

/** Id and name of some agents, by id (other modules show whose a record is without reading the agents table). */
export async function agentNames(q: Pick<Db, "select">, ids: number[]): Promise<Map<number, { id: number; name: string }>> {
  const rows = ids.length
    ? await q
        .select({ id: agents.id, name: agents.name })
        .from(agents)
        .where(inArray(agents.id, [...new Set(ids)]))
    : [];
  return new Map(rows.map((a) => [a.id, a]));
}

export function createAgentService({ db, clock, auth, places }: { db: Db; clock: Clock; auth: AuthService; places: PlaceService }) {
  const addressOf = (id: number | null, q?: Pick<Db, "select">) => (id ? places.getAddress(id, q) : Promise.resolve(null));
  async function load(caller: EmployeeCaller, id: number) {
    const a = await db.query.agents.findFirst({ where: eq(agents.id, id) });
    if (!a) throw notFound("Agent");
    assertSameAgent(caller, a.id, "Agent");
    return a;
  }
  /** An archived agent is read and restored, not changed: enabling it again is what restore is for. */
  async function loadCurrent(caller: EmployeeCaller, id: number) {
    const a = await load(caller, id);
    if (a.archived_at) throw conflict("Agent is archived; restore it first");
    return a;
  }

  return {
    /** Current agents, or with `archived` the archived ones (issue 22). */
    async list(caller: EmployeeCaller, archived = false) {
      const scope = agentScope(caller);
      const rows = await db
        .select()
        .from(agents)
        .where(and(scope ? inArray(agents.id, scope) : undefined, archived ? isNotNull(agents.archived_at) : isNull(agents.archived_at)))
        .orderBy(agents.name);
      // The premises' locality names come from places.
      const premises = await namedAddresses(
        db,
        rows.flatMap((a) => (a.address_id == null ? [] : [a.address_id])),
      );
      return rows.map((a) => ({ ...agentOut(a), locality: (a.address_id == null ? undefined : premises.get(a.address_id)?.locality) ?? null }));
    },

    async get(caller: EmployeeCaller, id: number) {
      const a = await load(caller, id);
      return agentOut(a, await addressOf(a.address_id));
    },

    async create(caller: EmployeeCaller, input: AgentInput) {
      return db.transaction(async (tx) => {
        if (await tx.query.agents.findFirst({ where: eq(agents.user_name, input.user_name) })) throw conflict("User name is already taken");
        const { address, ...values } = input;
        let [row] = await tx.insert(agents).values(values).returning();
        // The agent's premises belong to the new agent.
        if (address)
          [row] = await tx
            .update(agents)
            .set({ address_id: await places.saveAddress(tx, address, null, row!.id) })
            .where(eq(agents.id, row!.id))
            .returning();
        await audit(tx, clock.now(), caller, "create", "agent", row!.id, { name: row!.name });
        return agentOut(row!, await addressOf(row!.address_id, tx));
      });
    },

    async update(caller: EmployeeCaller, id: number, input: Partial<AgentInput>) {
      const current = await loadCurrent(caller, id);
      // A shop's admin saving its agent sends these back unchanged; changing them is for HQ.
      const terms = HQ_TERMS.filter((k) => input[k] !== undefined && input[k] !== current[k]);
      if (terms.length && !caller.agent.is_hq) throw forbidden(`Only head quarters may change ${terms.join(", ")}`);
      if (input.user_name && input.user_name !== current.user_name) {
        if (await db.query.agents.findFirst({ where: eq(agents.user_name, input.user_name) })) throw conflict("User name is already taken");
      }
      // Only head-quarters may disable an agent, and HQ cannot disable itself out of the box.
      if (input.enabled === false && (!caller.agent.is_hq || current.is_hq)) throw unprocessable("enabled: this agent cannot be disabled");
      const row = await db.transaction(async (tx) => {
        const addressId = input.address ? await places.saveAddress(tx, input.address, current.address_id, id) : current.address_id;
        const { address, ...values } = input;
        const [row] = await tx
          .update(agents)
          .set({ ...values, address_id: addressId })
          .where(eq(agents.id, id))
          .returning();
        await audit(tx, clock.now(), caller, "update", "agent", id, { ...changes(current, values), ...(address ? { address: true } : {}) });
        return row!;
      });
      if (input.enabled === false) await auth.revokeAgentSessions(id);
      return agentOut(row, await addressOf(row.address_id));
    },

    /**
     * An agent with employees, customers or tickets is archived instead (issue 22), so history
     * keeps its shop: disabled, hidden from lists, every session of it and its staff ended at
     * once. Its user name stays reserved for a restore. One without records is removed.
     */
    async remove(caller: EmployeeCaller, id: number) {
      const a = await load(caller, id);
      if (a.is_hq) throw conflict("The head-quarters agent cannot be removed");
      if (a.archived_at) throw conflict("Agent is already archived");
      // Each owner says whether it has records of the agent (issue 23).
      for (const hasRecords of [hasEmployees, hasCustomers, hasTickets]) {
        if (!(await hasRecords(db, id))) continue;
        await db.transaction(async (tx) => {
          await tx.update(agents).set({ archived_at: clock.now().toISOString(), enabled: false }).where(eq(agents.id, id));
          await audit(tx, clock.now(), caller, "archive", "agent", id, { name: a.name });
        });
        await auth.revokeAgentSessions(id);
        return true;
      }
      await db.transaction(async (tx) => {
        // Its (already ended) sessions and its premises go with it; failed-login counters have
        // no key to it. Any other address or image it still owns passes to head quarters.
        await dropAgentSessions(tx, id);
        await tx.update(agents).set({ address_id: null }).where(eq(agents.id, id));
        await releaseAgentAddresses(tx, id, a.address_id);
        await releaseAgentImages(tx, id);
        await tx.delete(agents).where(eq(agents.id, id));
        await audit(tx, clock.now(), caller, "delete", "agent", id, { name: a.name });
      });
      return true;
    },

    /** Brings an archived agent back, enabled, with its user name and password as they were. */
    async restore(caller: EmployeeCaller, id: number) {
      const a = await load(caller, id);
      if (!a.archived_at) throw conflict("Agent is not archived");
      const row = await db.transaction(async (tx) => {
        const [row] = await tx.update(agents).set({ archived_at: null, enabled: true }).where(eq(agents.id, id)).returning();
        await audit(tx, clock.now(), caller, "restore", "agent", id, { name: a.name });
        return row!;
      });
      return agentOut(row, await addressOf(row.address_id));
    },

    async setPassword(caller: EmployeeCaller, id: number, input: PasswordInput) {
      await loadCurrent(caller, id);
      const hash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        await tx
          .update(agents)
          .set({ password_hash: hash, ...(input.email_address !== undefined ? { email_address: input.email_address } : {}) })
          .where(eq(agents.id, id));
        await audit(tx, clock.now(), caller, "set_password", "agent", id);
      });
      // A new password ends the agent's existing sessions everywhere.
      await auth.revokeAgentSessions(id);
      return true;
    },
  };
}
export type AgentService = ReturnType<typeof createAgentService>;
