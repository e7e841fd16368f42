// What other modules may read of customers (issue 23: a module's tables are its own):
// messaging reads who a message goes to, and whether they asked for none, through these.
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { customers } from "../../../db/schema";

/** A customer as a message needs them: where it goes and whether they asked for none. */
export type CustomerContact = { id: number; agent_id: number; full_name: string; mobile: string; email_address: string; no_messages: boolean };

const contact = {
  id: customers.id,
  agent_id: customers.agent_id,
  full_name: customers.full_name,
  mobile: customers.mobile,
  email_address: customers.email_address,
  no_messages: customers.no_messages,
};

export function customerReads(db: Db) {
  return {
    async contact(id: number): Promise<CustomerContact | undefined> {
      const [c] = await db.select(contact).from(customers).where(eq(customers.id, id));
      return c;
    },
    /**
     * Customers whose mobile is this phone (domain/replies phoneKey: its last 8 digits), for a
     * text that came back (issue 35). Spaces, dashes, dots and a + in the stored number are ignored.
     */
    async byPhone(key: string): Promise<CustomerContact[]> {
      if (!/^\d{6,8}$/.test(key)) return [];
      const digits = sql`replace(replace(replace(replace(replace(${customers.mobile}, ' ', ''), '-', ''), '.', ''), '+', ''), '/', '')`;
      return db
        .select(contact)
        .from(customers)
        .where(sql`${digits} LIKE ${`%${key}`}`)
        .orderBy(asc(customers.id))
        .limit(20);
    },
    /** These customers (unknown ids are simply absent), or with `ids` null every customer of these shops (null: all). */
    async contacts(ids: number[] | null, agentIds: number[] | null): Promise<CustomerContact[]> {
      return db
        .select(contact)
        .from(customers)
        .where(and(ids ? inArray(customers.id, ids) : undefined, agentIds ? inArray(customers.agent_id, agentIds) : undefined))
        .orderBy(asc(customers.id));
    },
    /**
     * Customers whose mobile is one of these spellings (exact match on the indexed column), for
     * the public face's one-time codes (issue 35): at most a few, oldest first.
     */
    async byMobiles(spellings: string[]): Promise<CustomerContact[]> {
      if (!spellings.length) return [];
      return db.select(contact).from(customers).where(inArray(customers.mobile, spellings)).orderBy(asc(customers.id)).limit(5);
    },
  };
}
export type CustomerReads = ReturnType<typeof customerReads>;

/** A customer as a stop needs them: name, phones and home address (the stop's address when the ticket names none). */
export type CustomerHome = { id: number; full_name: string; mobile: string; landline: string; address_id: number | null };

/** These customers' names, phones and home addresses (unknown ids are absent). */
export async function customerHomes(q: Pick<Db, "select">, ids: number[]): Promise<Map<number, CustomerHome>> {
  if (!ids.length) return new Map();
  const rows = await q
    .select({ id: customers.id, full_name: customers.full_name, mobile: customers.mobile, landline: customers.landline, address_id: customers.address_id })
    .from(customers)
    .where(inArray(customers.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Whether any customer belongs to this agent: agents archives it then instead of removing it. */
export async function namesAgent(q: Pick<Db, "select">, agentId: number): Promise<boolean> {
  const [r] = await q.select({ one: customers.agent_id }).from(customers).where(eq(customers.agent_id, agentId)).limit(1);
  return r !== undefined;
}
