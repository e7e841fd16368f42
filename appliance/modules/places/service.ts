import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { addresses, customerPreferences, localities, preferences, streets } from "../../../db/schema";
import { conflict, notFound, unprocessable } from "../../http/errors";
import type { EmployeeCaller } from "../../http/route";
import type { Clock } from "../../platform/clock";
import { audit } from "../audit/audit";

export interface AddressInput {
  name?: string;
  number?: string;
  locality_id: number;
  street_id: number;
}

/** Spec §3: an address displays as number, name, street name and locality name joined. */
export function addressLine(a: { number?: string | null; name?: string | null; street?: string | null; locality?: string | null }): string {
  return [a.number, a.name, a.street, a.locality].map((s) => (s ?? "").trim()).filter(Boolean).join(", ");
}

type Exec = Pick<Db, "select" | "insert" | "update" | "query">;

export function createPlaceService({ db, clock }: { db: Db; clock: Clock }) {
  /** Spec §5: valid only with both locality and street; the street must lie in the locality. */
  async function checkAddress(q: Exec, input: AddressInput) {
    if (!input.locality_id || !input.street_id) throw unprocessable("Invalid Address");
    const street = await q.query.streets.findFirst({ where: and(eq(streets.id, input.street_id), eq(streets.locality_id, input.locality_id)), columns: { id: true } });
    if (!street) throw unprocessable("Invalid Address");
  }

  /**
   * Addresses carry no agent: a shop sees those of its customers and tickets and the ones it
   * created (the audit trail says who); HQ sees all. Another shop's address answers 404.
   */
  function visibleTo(caller: EmployeeCaller): SQL | undefined {
    if (caller.agent.is_hq) return undefined;
    const a = caller.agent.id;
    return sql`(${addresses.id} IN (SELECT address_id FROM customers WHERE agent_id = ${a} AND address_id IS NOT NULL)
      OR ${addresses.id} IN (SELECT pickup_address_id FROM tickets WHERE agent_id = ${a} AND pickup_address_id IS NOT NULL)
      OR ${addresses.id} IN (SELECT delivery_address_id FROM tickets WHERE agent_id = ${a} AND delivery_address_id IS NOT NULL)
      OR ${addresses.id} IN (SELECT entity_id FROM audit_log WHERE entity = 'address' AND action = 'create' AND agent_id = ${a}))`;
  }
  async function getAddress(id: number, q: Pick<Db, "select"> = db) {
    const rows = await q
      .select({ id: addresses.id, name: addresses.name, number: addresses.number, locality_id: addresses.locality_id, street_id: addresses.street_id, locality: localities.name, street: streets.name })
      .from(addresses)
      .innerJoin(localities, eq(localities.id, addresses.locality_id))
      .innerJoin(streets, eq(streets.id, addresses.street_id))
      .where(eq(addresses.id, id));
    const a = rows[0];
    return a ? { ...a, line: addressLine(a) } : null;
  }

  return {
    checkAddress,
    getAddress,
    /** Creates or updates an address inside the caller's transaction. */
    async saveAddress(q: Exec, input: AddressInput, existingId: number | null): Promise<number> {
      await checkAddress(q, input);
      const values = { name: input.name ?? "", number: input.number ?? "", locality_id: input.locality_id, street_id: input.street_id };
      if (existingId) {
        await q.update(addresses).set(values).where(eq(addresses.id, existingId));
        return existingId;
      }
      const [row] = await q.insert(addresses).values(values).returning({ id: addresses.id });
      return row!.id;
    },

    listLocalities: () => db.select().from(localities).orderBy(asc(localities.name)),
    async createLocality(caller: EmployeeCaller, name: string) {
      if (await db.query.localities.findFirst({ where: eq(localities.name, name) })) throw conflict("A locality with this name exists");
      const [row] = await db.insert(localities).values({ name }).returning();
      await audit(db, clock.now(), caller, "create", "locality", row!.id, { name });
      return row!;
    },
    async renameLocality(caller: EmployeeCaller, id: number, name: string) {
      const [row] = await db.update(localities).set({ name }).where(eq(localities.id, id)).returning();
      if (!row) throw notFound("Locality");
      await audit(db, clock.now(), caller, "update", "locality", id, { name });
      return row;
    },
    async listStreets(localityId: number) {
      return db.select().from(streets).where(eq(streets.locality_id, localityId)).orderBy(asc(streets.name));
    },
    async createStreet(caller: EmployeeCaller, localityId: number, name: string) {
      if (!(await db.query.localities.findFirst({ where: eq(localities.id, localityId), columns: { id: true } }))) throw unprocessable("locality_id: no such locality");
      const [row] = await db.insert(streets).values({ locality_id: localityId, name }).returning();
      await audit(db, clock.now(), caller, "create", "street", row!.id, { name });
      return row!;
    },

    async listAddresses(caller: EmployeeCaller, ids?: number[]) {
      const rows = await db
        .select({ id: addresses.id, name: addresses.name, number: addresses.number, locality_id: addresses.locality_id, street_id: addresses.street_id, locality: localities.name, street: streets.name })
        .from(addresses)
        .innerJoin(localities, eq(localities.id, addresses.locality_id))
        .innerJoin(streets, eq(streets.id, addresses.street_id))
        .where(and(ids ? inArray(addresses.id, ids) : undefined, visibleTo(caller)))
        .orderBy(asc(addresses.id))
        .limit(ids ? ids.length : 1000);
      return rows.map((a) => ({ ...a, line: addressLine(a) }));
    },
    async address(caller: EmployeeCaller, id: number) {
      const [visible] = await db.select({ id: addresses.id }).from(addresses).where(and(eq(addresses.id, id), visibleTo(caller)));
      const a = visible && (await getAddress(id));
      if (!a) throw notFound("Address");
      return a;
    },
    async createAddress(caller: EmployeeCaller, input: AddressInput) {
      const id = await db.transaction(async (tx) => {
        const id = await this.saveAddress(tx, input, null);
        await audit(tx, clock.now(), caller, "create", "address", id);
        return id;
      });
      return (await getAddress(id))!;
    },
    /** Spec §7: the address's own fields change; locality and street objects are ignored. */
    async updateAddress(caller: EmployeeCaller, id: number, input: Partial<AddressInput>) {
      const current = await db.query.addresses.findFirst({ where: and(eq(addresses.id, id), visibleTo(caller)) });
      if (!current) throw notFound("Address");
      const merged = { name: input.name ?? current.name, number: input.number ?? current.number, locality_id: input.locality_id ?? current.locality_id, street_id: input.street_id ?? current.street_id };
      await db.transaction(async (tx) => {
        await this.saveAddress(tx, merged, id);
        await audit(tx, clock.now(), caller, "update", "address", id);
      });
      return (await getAddress(id))!;
    },

    listPreferences: () => db.select().from(preferences).orderBy(asc(preferences.name)),
    async createPreference(caller: EmployeeCaller, name: string) {
      if (await db.query.preferences.findFirst({ where: eq(preferences.name, name) })) throw conflict("A preference with this name exists");
      const [row] = await db.insert(preferences).values({ name }).returning();
      await audit(db, clock.now(), caller, "create", "preference", row!.id, { name });
      return row!;
    },
    async removePreference(caller: EmployeeCaller, id: number) {
      const p = await db.query.preferences.findFirst({ where: eq(preferences.id, id) });
      if (!p) throw notFound("Preference");
      await db.transaction(async (tx) => {
        await tx.delete(customerPreferences).where(eq(customerPreferences.preference_id, id));
        await tx.delete(preferences).where(eq(preferences.id, id));
        await audit(tx, clock.now(), caller, "delete", "preference", id, { name: p.name });
      });
      return true;
    },
  };
}
export type PlaceService = ReturnType<typeof createPlaceService>;
