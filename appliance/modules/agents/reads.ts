// What other modules may read of agents (issue 23: a module's tables are its own): messaging
// names the shop and its phone in a message, scheduling the shop of a ticket, through these.
import { asc, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { agents } from "../../../db/schema";

export type ShopContact = { id: number; name: string; landline: string; mobile: string };
/** A shop as a list to choose from shows it: archived ones too, marked, as the agents list's two views do. */
export type ShopChoice = { id: number; name: string; is_hq: boolean; enabled: boolean; archived_at: string | null };

export function agentReads(db: Db) {
  return {
    async shop(id: number): Promise<ShopContact | undefined> {
      const [a] = await db.select({ id: agents.id, name: agents.name, landline: agents.landline, mobile: agents.mobile }).from(agents).where(eq(agents.id, id));
      return a;
    },
    /** Every agent (each is a shop; head quarters' own counter too), by name: HQ lists a site copy's shops (issue 34). */
    shops(): Promise<ShopChoice[]> {
      return db
        .select({ id: agents.id, name: agents.name, is_hq: agents.is_hq, enabled: agents.enabled, archived_at: agents.archived_at })
        .from(agents)
        .orderBy(asc(agents.name), asc(agents.id));
    },
  };
}
export type AgentReads = ReturnType<typeof agentReads>;

export { agentNames } from "./service";

/** Whether this agent is head quarters (false when unknown). */
export async function isHqAgent(q: Pick<Db, "select">, id: number): Promise<boolean> {
  const [a] = await q.select({ is_hq: agents.is_hq }).from(agents).where(eq(agents.id, id));
  return a?.is_hq ?? false;
}

/**
 * The agent a message of the box itself is filed under when no customer of the box is its
 * addressee (issue 35: a one-time code to a mobile no shop here knows): the head-quarters
 * agent, else the first one (outgoing_messages.agent_id is required and references agents).
 */
export async function boxAgentId(q: Pick<Db, "select">): Promise<number | null> {
  const [a] = await q.select({ id: agents.id }).from(agents).where(isNull(agents.archived_at)).orderBy(desc(agents.is_hq), asc(agents.id)).limit(1);
  return a?.id ?? null;
}

/** The agent's `can_see_action` list as stored (spec §6; the catalogue parses it), or null. */
export async function actionListOf(q: Pick<Db, "select">, id: number): Promise<string | null> {
  const [a] = await q.select({ list: agents.can_see_action }).from(agents).where(eq(agents.id, id));
  return a?.list ?? null;
}
