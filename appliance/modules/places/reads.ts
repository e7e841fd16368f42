// What other modules may read of places (issue 23: a module's tables are its own): scheduling
// finds the locality of a stop and the address a driver drives to through these.
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { addresses, localities, preferences, streets } from "../../../db/schema";

export { unknownLocalityIds } from "./service";

/** An address with the names of its street and locality. */
export type NamedAddress = { id: number; name: string; number: string; locality_id: number; street: string; locality: string };

/** The locality of each of these addresses (unknown ids are absent). */
export async function addressLocalities(q: Pick<Db, "select">, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await q
    .select({ id: addresses.id, locality_id: addresses.locality_id })
    .from(addresses)
    .where(inArray(addresses.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.locality_id]));
}

/** These addresses with their street and locality names (unknown ids are absent). */
export async function namedAddresses(q: Pick<Db, "select">, ids: number[]): Promise<Map<number, NamedAddress>> {
  if (!ids.length) return new Map();
  const rows = await q
    .select({
      id: addresses.id,
      name: addresses.name,
      number: addresses.number,
      locality_id: addresses.locality_id,
      street: streets.name,
      locality: localities.name,
    })
    .from(addresses)
    .innerJoin(streets, eq(streets.id, addresses.street_id))
    .innerJoin(localities, eq(localities.id, addresses.locality_id))
    .where(inArray(addresses.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Every locality's id and name. */
export async function localityNames(q: Pick<Db, "select">): Promise<{ id: number; name: string }[]> {
  return q.select({ id: localities.id, name: localities.name }).from(localities);
}

/** The ids among `ids` that name no preference (customers checks the preferences it stores here). */
export async function unknownPreferenceIds(q: Pick<Db, "select">, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const found = await q.select({ id: preferences.id }).from(preferences).where(inArray(preferences.id, ids));
  const known = new Set(found.map((p) => p.id));
  return [...new Set(ids)].filter((id) => !known.has(id));
}

/**
 * When agents removes an agent: its premises (if any) go, and any other address it still owns
 * passes to head quarters (no owner), inside agents' transaction.
 */
export async function releaseAgentAddresses(tx: Pick<Db, "delete" | "update">, agentId: number, premisesId: number | null): Promise<void> {
  if (premisesId) await tx.delete(addresses).where(eq(addresses.id, premisesId));
  await tx.update(addresses).set({ agent_id: null }).where(eq(addresses.agent_id, agentId));
}
