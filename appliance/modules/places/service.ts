import { and, asc, eq, inArray, ne, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { inJsonList, prepared } from "../../../db/prepared";
import { addresses, localities, preferences, streets } from "../../../db/schema";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import type { AgentCaller, EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { audit, changes } from "../audit/audit";
import { dropPreferenceLinks } from "../customers/preferenceLinks";
import type { AddressInput } from "./model";

/** Spec §3: an address displays as number, name, street name and locality name joined. */
export function addressLine(a: { number?: string | null; name?: string | null; street?: string | null; locality?: string | null }): string {
  return [a.number, a.name, a.street, a.locality]
    .map((s) => (s ?? "").trim())
    .filter(Boolean)
    .join(", ");
}

type Exec = Pick<Db, "select" | "insert" | "update" | "query">;

/**
 * An address belongs to the shop that made it (a customer's home, a ticket's pickup point, an
 * agent's premises): that shop and HQ see it; one without an owner counts as HQ's.
 */
function ownedBy(caller: AgentCaller): SQL | undefined {
  return caller.agent.is_hq ? undefined : eq(addresses.agent_id, caller.agent.id);
}

/**
 * A reference to an address (a customer's, a ticket's pickup or delivery) must name one the
 * caller may see: another shop's answers 404, exactly like one that does not exist.
 */
export async function assertAddressVisible(q: Pick<Db, "select">, caller: AgentCaller, id: number | null | undefined): Promise<void> {
  if (!id) return;
  const [row] = await q
    .select({ id: addresses.id })
    .from(addresses)
    .where(and(eq(addresses.id, id), ownedBy(caller)));
  if (!row) throw notFound("Address");
}

/** The ids among `ids` that name no locality (other modules check the localities they store here). */
export async function unknownLocalityIds(q: Pick<Db, "select">, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const found = await q.select({ id: localities.id }).from(localities).where(inArray(localities.id, ids));
  const known = new Set(found.map((l) => l.id));
  return [...new Set(ids)].filter((id) => !known.has(id));
}

/** A name another row already has: SQLite's unique index answers, whatever raced the pre-check. */
function isUniqueViolation(e: unknown): boolean {
  for (let c: unknown = e; c instanceof Error; c = c.cause) if (/UNIQUE constraint failed/.test(c.message)) return true;
  return false;
}

/** An address as every answer shows it: its parts and the names of its locality and street. */
const ADDRESS_COLUMNS = {
  id: addresses.id,
  name: addresses.name,
  number: addresses.number,
  locality_id: addresses.locality_id,
  street_id: addresses.street_id,
  locality: localities.name,
  street: streets.name,
};

/** Addresses by ids (a JSON list), in id order; HQ sees every shop's, a shop its own (`ownedBy`). */
const addressesByIdFor = (shop: boolean) =>
  prepared((q: Db) =>
    q
      .select(ADDRESS_COLUMNS)
      .from(addresses)
      .innerJoin(localities, eq(localities.id, addresses.locality_id))
      .innerJoin(streets, eq(streets.id, addresses.street_id))
      .where(and(inJsonList(addresses.id, "ids"), shop ? eq(addresses.agent_id, sql.placeholder("agent")) : undefined))
      .orderBy(asc(addresses.id))
      .limit(sql.placeholder("n"))
      .prepare(),
  );
const addressesById = addressesByIdFor(false);
const shopAddressesById = addressesByIdFor(true);

export function createPlaceService({ db, clock }: { db: Db; clock: Clock }) {
  /** Spec §5: valid only with both locality and street; the street must lie in the locality. */
  async function checkAddress(q: Exec, input: AddressInput) {
    if (!input.locality_id || !input.street_id) throw unprocessable("Invalid Address");
    const street = await q.query.streets.findFirst({
      where: and(eq(streets.id, input.street_id), eq(streets.locality_id, input.locality_id)),
      columns: { id: true },
    });
    if (!street) throw unprocessable("Invalid Address");
  }

  /** Adds a locality or preference, or renames a locality: a name in use is a 409, never a 500. */
  async function uniqueName<T>(what: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict(`A ${what} with this name exists`);
      throw e;
    }
  }
  async function getAddress(id: number, q: Pick<Db, "select"> = db) {
    const rows = await q
      .select(ADDRESS_COLUMNS)
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
    /** Creates (owned by `owner`, a shop) or updates an address inside the caller's transaction. */
    async saveAddress(q: Exec, input: AddressInput, existingId: number | null, owner: number): Promise<number> {
      await checkAddress(q, input);
      const values = { name: input.name ?? "", number: input.number ?? "", locality_id: input.locality_id, street_id: input.street_id };
      if (existingId) {
        await q.update(addresses).set(values).where(eq(addresses.id, existingId));
        return existingId;
      }
      const [row] = await q
        .insert(addresses)
        .values({ ...values, agent_id: owner })
        .returning({ id: addresses.id });
      return row!.id;
    },

    listLocalities: () => db.select().from(localities).orderBy(asc(localities.name)),
    async createLocality(caller: EmployeeCaller, name: string) {
      if (await db.query.localities.findFirst({ where: eq(localities.name, name) })) throw conflict("A locality with this name exists");
      return uniqueName("locality", () =>
        db.transaction(async (tx) => {
          const [row] = await tx.insert(localities).values({ name }).returning();
          await audit(tx, clock.now(), caller, "create", "locality", row!.id, { name });
          return row!;
        }),
      );
    },
    async renameLocality(caller: EmployeeCaller, id: number, name: string) {
      const current = await db.query.localities.findFirst({ where: eq(localities.id, id) });
      if (!current) throw notFound("Locality");
      if (await db.query.localities.findFirst({ where: and(eq(localities.name, name), ne(localities.id, id)), columns: { id: true } }))
        throw conflict("A locality with this name exists");
      return uniqueName("locality", () =>
        db.transaction(async (tx) => {
          const [row] = await tx.update(localities).set({ name }).where(eq(localities.id, id)).returning();
          await audit(tx, clock.now(), caller, "rename", "locality", id, { before: current.name, after: name });
          return row!;
        }),
      );
    },
    async listStreets(localityId: number) {
      return db.select().from(streets).where(eq(streets.locality_id, localityId)).orderBy(asc(streets.name));
    },
    async createStreet(caller: EmployeeCaller, localityId: number, name: string) {
      if (!(await db.query.localities.findFirst({ where: eq(localities.id, localityId), columns: { id: true } })))
        throw unprocessable("locality_id: no such locality");
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(streets).values({ locality_id: localityId, name }).returning();
        await audit(tx, clock.now(), caller, "create", "street", row!.id, { locality_id: localityId, name });
        return row!;
      });
    },

    async listAddresses(caller: EmployeeCaller, ids?: number[]) {
      // By ids (every ticket opened asks for its addresses): the query built once.
      if (ids) {
        const json = JSON.stringify(ids);
        const rows = caller.agent.is_hq
          ? await addressesById(db).all({ ids: json, n: ids.length })
          : await shopAddressesById(db).all({ ids: json, n: ids.length, agent: caller.agent.id });
        return rows.map((a) => ({ ...a, line: addressLine(a) }));
      }
      const rows = await db
        .select(ADDRESS_COLUMNS)
        .from(addresses)
        .innerJoin(localities, eq(localities.id, addresses.locality_id))
        .innerJoin(streets, eq(streets.id, addresses.street_id))
        .where(ownedBy(caller))
        .orderBy(asc(addresses.id))
        .limit(1000);
      return rows.map((a) => ({ ...a, line: addressLine(a) }));
    },
    /** The address if the caller may see it, else null (a record that embeds it leaves it out). */
    async visibleAddress(caller: AgentCaller, id: number | null) {
      if (!id) return null;
      const [visible] = await db
        .select({ id: addresses.id })
        .from(addresses)
        .where(and(eq(addresses.id, id), ownedBy(caller)));
      return visible ? getAddress(id) : null;
    },
    async address(caller: EmployeeCaller, id: number) {
      await assertAddressVisible(db, caller, id);
      const a = await getAddress(id);
      if (!a) throw notFound("Address");
      return a;
    },
    /** A new address belongs to the caller's shop. */
    async createAddress(caller: EmployeeCaller, input: AddressInput) {
      const id = await db.transaction(async (tx) => {
        const id = await this.saveAddress(tx, input, null, caller.agent.id);
        await audit(tx, clock.now(), caller, "create", "address", id);
        return id;
      });
      return (await getAddress(id))!;
    },
    /** Spec §7: the address's own fields change; locality and street objects are ignored. */
    async updateAddress(caller: EmployeeCaller, id: number, input: Partial<AddressInput>) {
      const current = await db.query.addresses.findFirst({ where: and(eq(addresses.id, id), ownedBy(caller)) });
      if (!current) throw notFound("Address");
      const merged = {
        name: input.name ?? current.name,
        number: input.number ?? current.number,
        locality_id: input.locality_id ?? current.locality_id,
        street_id: input.street_id ?? current.street_id,
      };
      await db.transaction(async (tx) => {
        await this.saveAddress(tx, merged, id, caller.agent.id);
        await audit(tx, clock.now(), caller, "update", "address", id, changes(current, merged));
      });
      return (await getAddress(id))!;
    },

    listPreferences: () => db.select().from(preferences).orderBy(asc(preferences.name)),
    async createPreference(caller: EmployeeCaller, name: string) {
      if (await db.query.preferences.findFirst({ where: eq(preferences.name, name) })) throw conflict("A preference with this name exists");
      return uniqueName("preference", () =>
        db.transaction(async (tx) => {
          const [row] = await tx.insert(preferences).values({ name }).returning();
          await audit(tx, clock.now(), caller, "create", "preference", row!.id, { name });
          return row!;
        }),
      );
    },
    async removePreference(caller: EmployeeCaller, id: number) {
      const p = await db.query.preferences.findFirst({ where: eq(preferences.id, id) });
      if (!p) throw notFound("Preference");
      await db.transaction(async (tx) => {
        await dropPreferenceLinks(tx, id);
        await tx.delete(preferences).where(eq(preferences.id, id));
        await audit(tx, clock.now(), caller, "delete", "preference", id, { name: p.name });
      });
      return true;
    },
  };
}
export type PlaceService = ReturnType<typeof createPlaceService>;
