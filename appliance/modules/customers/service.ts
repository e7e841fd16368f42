import { and, asc, count, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import { hasDeposits, hasPayments } from "../money/service";
import { accountOfCustomer } from "../accounts/service";
import type { Db } from "../../../db/client";
import { addresses, agents, customerPreferences, customerStats, customers, employeeOwings, tickets } from "../../../db/schema";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import { agentScope, assertSameAgent } from "../auth/caller";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { type ApprovalInput, type ApprovalService, approvedBy } from "../approval/service";
import { audit } from "../audit/audit";
import { unknownPreferenceIds } from "../places/reads";
import { assertAddressVisible, type PlaceService } from "../places/service";
import type { CustomerSaveInput } from "./model";
import { createCustomerPrivacy } from "./privacy";
import { ftsLiteral, normalise, scorer, trigrams } from "./search";
import { customersById } from "./repo";
import { balanceDue } from "../../domain/money";

export const LOOKUP_FIELDS = ["mobile", "landline", "id_card", "email_address"] as const;
export type LookupField = (typeof LOOKUP_FIELDS)[number];

type Row = typeof customers.$inferSelect;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Spec §3: first and last name are derived by splitting the full name on a space. */
export function splitName(full: string): { first_name: string; last_name: string } {
  const f = full.trim().replace(/\s+/g, " ");
  const i = f.indexOf(" ");
  return i < 0 ? { first_name: f, last_name: "" } : { first_name: f.slice(0, i), last_name: f.slice(i + 1) };
}

export function createCustomerService({ db, clock, places, approvals }: { db: Db; clock: Clock; places: PlaceService; approvals: ApprovalService }) {
  const scopeWhere = (caller: EmployeeCaller) => {
    const s = agentScope(caller);
    return s ? inArray(customers.agent_id, s) : undefined;
  };

  async function load(caller: EmployeeCaller, id: number) {
    const c = await db.query.customers.findFirst({ where: eq(customers.id, id) });
    if (!c) throw notFound("Customer");
    assertSameAgent(caller, c.agent_id, "Customer");
    return c;
  }

  /**
   * Admin-only figures (spec §6), money in cents; ranks are 1-based, -1 shows N/A. The
   * customer's own figures are summed from their tickets (a handful of rows through
   * tickets_customer_idx); customer_stats keeps only the two ranked columns, written when they
   * change, so adding an item at the counter writes no statistics page (migration 0016).
   */
  async function statistics(id: number) {
    const [s] = await db
      .select({
        number_of_visits: sql<number>`count(${tickets.confirmed_at})`,
        total_spent: sql<number>`coalesce(sum(${tickets.total_paid}), 0)`,
        ticket_total: sql<number>`coalesce(sum(${tickets.total}), 0)`,
        outstanding_balance: sql<number>`coalesce(sum(CASE WHEN ${tickets.confirmed_at} IS NOT NULL THEN ${tickets.total} - ${tickets.total_paid} ELSE 0 END), 0)`,
        last_visit: sql<string | null>`max(${tickets.confirmed_at})`,
      })
      .from(tickets)
      .where(eq(tickets.customer_id, id));
    const spent = s?.total_spent ?? 0;
    const visits = s?.number_of_visits ?? 0;
    const rank = async (col: typeof customerStats.total_spent | typeof customerStats.number_of_visits, mine: number) => {
      if (mine <= 0) return -1;
      const [r] = await db.select({ n: count() }).from(customerStats).where(gt(col, mine));
      return 1 + (r?.n ?? 0);
    };
    return {
      number_of_visits: visits,
      total_spent: spent,
      last_visit: s?.last_visit ?? null,
      ticket_total: s?.ticket_total ?? 0,
      outstanding_balance: s?.outstanding_balance ?? 0,
      turnover_rank: await rank(customerStats.total_spent, spent),
      visit_rank: await rank(customerStats.number_of_visits, visits),
    };
  }

  async function prefsOf(id: number) {
    const rows = await db.select({ id: customerPreferences.preference_id }).from(customerPreferences).where(eq(customerPreferences.customer_id, id));
    return rows.map((r) => r.id);
  }

  const out = (c: Row) => ({ ...c });

  /** Replaces the customer's preferences with exactly this set, inside the caller's transaction. */
  async function replacePreferences(tx: Tx, id: number, ids: number[]) {
    const unique = [...new Set(ids)];
    if (unique.length) {
      if ((await unknownPreferenceIds(tx, unique)).length) throw unprocessable("preferences: unknown preference id");
    }
    await tx.delete(customerPreferences).where(eq(customerPreferences.customer_id, id));
    if (unique.length) await tx.insert(customerPreferences).values(unique.map((preference_id) => ({ customer_id: id, preference_id })));
    return unique;
  }

  /** A body names its address either by id or by its fields, not both. */
  function oneAddress(input: Partial<CustomerSaveInput>) {
    if (input.address && input.address_id) throw unprocessable("address: send either address or address_id");
  }

  /**
   * A customer lives at an address its caller may see (another shop's answers 404). An HQ
   * address that HQ gives to a shop's customer passes to that shop, so the shop sees it too.
   */
  async function useAddress(tx: Pick<Db, "select" | "update">, caller: EmployeeCaller, addressId: number | null | undefined, customerAgent: number) {
    if (!addressId) return;
    await assertAddressVisible(tx, caller, addressId);
    if (caller.agent.is_hq && customerAgent !== caller.agent.id) {
      await tx
        .update(addresses)
        .set({ agent_id: customerAgent })
        .where(and(eq(addresses.id, addressId), or(isNull(addresses.agent_id), eq(addresses.agent_id, caller.agent.id))));
    }
  }

  /** The customer's tickets, newest first, with the shop that took each: the caller's shop's only (HQ: all). */
  function ticketRows(caller: EmployeeCaller, id: number, limit = -1) {
    const scope = agentScope(caller);
    return db
      .select({
        id: tickets.id,
        state: tickets.state,
        pickup_date: tickets.pickup_date,
        delivery_date: tickets.delivery_date,
        total: tickets.total,
        total_paid: tickets.total_paid,
        confirmed_at: tickets.confirmed_at,
        agent_id: tickets.agent_id,
        agent_name: agents.name,
      })
      .from(tickets)
      .innerJoin(agents, eq(agents.id, tickets.agent_id))
      .where(and(eq(tickets.customer_id, id), scope ? inArray(tickets.agent_id, scope) : undefined))
      .orderBy(desc(tickets.id))
      .limit(limit);
  }

  return {
    async get(caller: EmployeeCaller, id: number, simple: boolean) {
      const c = await load(caller, id);
      // The ticket total decides whether the delete button shows, so every role gets it.
      const stats = await statistics(id);
      const result = {
        ...out(c),
        address: await places.visibleAddress(caller, c.address_id),
        preferences: await prefsOf(id),
        ...(caller.employee.role === "admin" ? stats : { ticket_total: stats.ticket_total }),
      };
      if (!simple) return result;
      return {
        ...result,
        simple_tickets: (await ticketRows(caller, id, 10)).map(({ agent_id: _, ...t }) => t),
      };
    },

    /**
     * Spec §2 Customers: every ticket of the customer, newest first, with the shop that took
     * it; the caller's shop's tickets only (HQ: all), like the ticket list. Cents.
     */
    async tickets(caller: EmployeeCaller, id: number) {
      await load(caller, id);
      const rows = await ticketRows(caller, id);
      return rows.map((t) => ({ ...t, balance: balanceDue(t.total, t.total_paid) }));
    },

    /** Newest first, paged: the list screen shows nothing until a term is typed, other screens page. */
    async list(caller: EmployeeCaller, limit: number, offset: number) {
      const rows = await db.select().from(customers).where(scopeWhere(caller)).orderBy(desc(customers.id)).limit(limit).offset(offset);
      // Each with its preferences (spec §3 Customer), one query for the page: an import reads
      // a page at once instead of asking for each customer's preferences (issue 26).
      const prefs = rows.length
        ? await db
            .select({ c: customerPreferences.customer_id, p: customerPreferences.preference_id })
            .from(customerPreferences)
            .where(
              inArray(
                customerPreferences.customer_id,
                rows.map((r) => r.id),
              ),
            )
        : [];
      return rows.map((c) => ({ ...out(c), preferences: prefs.filter((x) => x.c === c.id).map((x) => x.p) }));
    },

    /**
     * Fuzzy search over first and last name, mobile, landline, ID card and e-mail.
     * 1. Substring pass: the term as one FTS5 trigram phrase (exact substring, any case).
     * 2. If that found almost nothing, a typo-tolerant pass: customers sharing at least two of
     *    the term's rarest trigrams, re-scored by the share of the term's trigrams they hold.
     *    (A letter missing from a short word leaves no trigram in common: not found.)
     * Terms under 3 characters (no trigram) fall back to a prefix match.
     */
    async search(caller: EmployeeCaller, rawTerm: string, limit: number, offset = 0) {
      const term = normalise(rawTerm);
      if (!term) return [];
      const want = limit + offset;
      const scope = agentScope(caller);

      if (term.length < 3) {
        const like = `${term.replace(/[%_\\]/g, "\\$&")}%`;
        const rows = await db
          .select()
          .from(customers)
          .where(
            and(
              scopeWhere(caller),
              sql`(lower(${customers.full_name}) LIKE ${like} ESCAPE '\\' OR lower(${customers.last_name}) LIKE ${like} ESCAPE '\\' OR ${customers.mobile} LIKE ${like} ESCAPE '\\')`,
            ),
          )
          .orderBy(asc(customers.full_name))
          .limit(want);
        return rows.slice(offset).map(out);
      }

      // Candidates carry only what scoring needs; full rows are read for the winners alone.
      type Candidate = {
        id: number;
        agent_id: number;
        full_name: string;
        last_name: string;
        mobile: string;
        landline: string;
        id_card: string;
        email_address: string;
      };
      const candidates = (match: string, limit: number, ranked: boolean) =>
        db.all<Candidate>(sql`SELECT c.id, c.agent_id, c.full_name, c.last_name, c.mobile, c.landline, c.id_card, c.email_address
          FROM customers_fts f JOIN customers c ON c.id = f.rowid WHERE customers_fts MATCH ${match} ${ranked ? sql`ORDER BY f.rank` : sql``} LIMIT ${limit}`);
      const found = new Map<number, Candidate>();
      const inScope = (r: Candidate) => !scope || scope.includes(r.agent_id);
      for (const r of await candidates(ftsLiteral(term), Math.max(want * 3, 60), false)) if (inScope(r)) found.set(r.id, r);

      // Typos are looked for only when the exact pass found (almost) nothing, and only in
      // words: digits of a phone or ID card are matched exactly (their trigrams are so common
      // that an OR over them would rank half the table).
      if (found.size < 5 && /\p{L}/u.test(term)) {
        const grams = trigrams(term);
        const freq = await db.all<{ term: string; doc: number }>(
          sql`SELECT term, doc FROM customers_fts_vocab WHERE term IN (${sql.join(
            grams.map((g) => sql`${g}`),
            sql`, `,
          )})`,
        );
        // Customers holding at least two of the term's (six rarest) trigrams: an OR of pairwise
        // ANDs, which FTS5 answers by intersecting short posting lists, with no ranking pass.
        const rare = freq
          .sort((a, b) => a.doc - b.doc)
          .slice(0, 6)
          .map((f) => ftsLiteral(f.term));
        const pairs = rare.flatMap((a, i) => rare.slice(i + 1).map((b) => `(${a} AND ${b})`));
        const match = pairs.length ? pairs.join(" OR ") : rare.join(" OR ");
        if (match) for (const r of await candidates(match, 200, false)) if (inScope(r) && !found.has(r.id)) found.set(r.id, r);
      }

      const scoreOf = scorer(term);
      const winners = [...found.values()]
        .map((r) => ({ r, s: scoreOf([r.full_name, r.last_name, r.mobile, r.landline, r.id_card, r.email_address]) }))
        .filter((x) => x.s >= 0.4)
        .sort((a, b) => b.s - a.s || a.r.full_name.localeCompare(b.r.full_name) || a.r.id - b.r.id)
        .slice(offset, want)
        .map((x) => x.r.id);
      if (!winners.length) return [];
      const rows = new Map((await customersById(db).all({ ids: JSON.stringify(winners) })).map((r) => [r.id, r]));
      return winners.map((id) => out(rows.get(id)!));
    },

    /** Spec §5 existence check: the first customer with exactly this value, or 404. */
    async lookup(caller: EmployeeCaller, field: LookupField, value: string) {
      const v = value.trim();
      if (!v) throw notFound("Customer");
      const [row] = await db
        .select()
        .from(customers)
        .where(and(eq(customers[field], v), scopeWhere(caller)))
        .orderBy(asc(customers.id))
        .limit(1);
      if (!row) throw notFound("Customer");
      return out(row);
    },

    async byDeliveryDate(caller: EmployeeCaller, date: string) {
      const rows = await db
        .selectDistinct({ c: customers })
        .from(customers)
        .innerJoin(tickets, eq(tickets.customer_id, customers.id))
        .where(and(eq(tickets.delivery_date, date), scopeWhere(caller)))
        .orderBy(asc(customers.full_name));
      return rows.map((r) => out(r.c));
    },

    /**
     * The customer, its new home address and its preferences are saved in one transaction
     * (with their audit rows): a failure in any part leaves nothing. A customer discount above
     * the discount limit needs a manager's approval (issue 11).
     */
    async create(caller: EmployeeCaller, input: CustomerSaveInput, approval: ApprovalInput) {
      oneAddress(input);
      const { address, preferences: prefIds, ...fields } = input;
      const agentId = caller.agent.is_hq && fields.agent_id ? fields.agent_id : caller.agent.id;
      if (agentId !== caller.agent.id && !(await db.query.agents.findFirst({ columns: { id: true }, where: eq(agents.id, agentId) }))) throw notFound("Agent");
      const approver = await approvals.approveDiscount(caller, approval, fields.discount ?? 0, "a customer discount");
      return db.transaction(async (tx) => {
        let addressId = fields.address_id;
        if (address) {
          // The customer's home belongs to the customer's shop.
          addressId = await places.saveAddress(tx, address, null, agentId);
          await audit(tx, clock.now(), caller, "create", "address", addressId);
        } else await useAddress(tx, caller, addressId, agentId);
        const [row] = await tx
          .insert(customers)
          .values({ ...fields, address_id: addressId, ...splitName(fields.full_name), agent_id: agentId, created_at: clock.now().toISOString() })
          .returning();
        const prefs = prefIds ? await replacePreferences(tx, row!.id, prefIds) : undefined;
        await audit(tx, clock.now(), caller, "create", "customer", row!.id, {
          discount: row!.discount,
          ...(prefs ? { preferences: prefs } : {}),
          ...approvedBy(approver),
        });
        return out(row!);
      });
    },

    /** Like create: fields, address and preferences change together or not at all. */
    async update(caller: EmployeeCaller, id: number, input: Partial<CustomerSaveInput>, approval: ApprovalInput) {
      oneAddress(input);
      const current = await load(caller, id);
      const raised = input.discount !== undefined && input.discount > current.discount;
      const approver = raised ? await approvals.approveDiscount(caller, approval, input.discount!, "a customer discount") : null;
      const { agent_id, address, preferences: prefIds, ...rest } = input;
      // An address the shop may not see (linked before addresses had owners) is not edited: a new one replaces it.
      const home = address && current.address_id ? await places.visibleAddress(caller, current.address_id) : null;
      const set = { ...rest, ...(input.full_name ? splitName(input.full_name) : {}) };
      if (Object.keys(set).length || address || prefIds) {
        await db.transaction(async (tx) => {
          if (address) {
            set.address_id = await places.saveAddress(tx, address, home?.id ?? null, current.agent_id);
            await audit(tx, clock.now(), caller, home ? "update" : "create", "address", set.address_id);
          } else if (input.address_id !== current.address_id) {
            // Sending back the address it already has is no new reference.
            await useAddress(tx, caller, input.address_id, current.agent_id);
          }
          if (Object.keys(set).length) await tx.update(customers).set(set).where(eq(customers.id, id));
          const prefs = prefIds ? await replacePreferences(tx, id, prefIds) : undefined;
          await audit(tx, clock.now(), caller, "update", "customer", id, {
            fields: Object.keys(rest),
            ...(raised ? { discount: { before: current.discount, after: input.discount } } : {}),
            ...(prefs ? { preferences: prefs } : {}),
            ...approvedBy(approver),
          });
        });
      }
      return out(await load(caller, id));
    },

    /** Spec §5: only a customer whose ticket total is 0 or less; its empty tickets go with it. */
    async remove(caller: EmployeeCaller, id: number) {
      const c = await load(caller, id);
      const stats = await statistics(id);
      if (stats.ticket_total > 0) throw conflict("Customer has tickets with a total; it cannot be removed");
      // Its tickets go with it, so none of them may carry a payment (an owing), even of a total now 0.
      const [paid] = await db
        .select({ n: count() })
        .from(employeeOwings)
        .innerJoin(tickets, eq(tickets.id, employeeOwings.ticket_id))
        .where(eq(tickets.customer_id, id));
      const own = (await db.select({ id: tickets.id }).from(tickets).where(eq(tickets.customer_id, id))).map((t) => t.id);
      if ((paid?.n ?? 0) > 0 || (await hasPayments(db, { tickets: own }))) throw conflict("Customer has tickets with payments; it cannot be removed");
      // Issue 34: money held for them, or a business account they charge to, is their history too.
      if (await hasDeposits(db, id)) throw conflict("Customer has deposits (a balance held or its history); it cannot be removed");
      if ((await accountOfCustomer(db, id)) !== null) throw conflict("Customer is on a business account; take them off the account first");
      await db.transaction(async (tx) => {
        await tx.delete(tickets).where(eq(tickets.customer_id, id));
        await tx.delete(customerPreferences).where(eq(customerPreferences.customer_id, id));
        await tx.delete(customers).where(eq(customers.id, id));
        await audit(tx, clock.now(), caller, "delete", "customer", id, { full_name: c.full_name });
      });
      return true;
    },

    /** A customer's own data: the GDPR export and erasure (privacy.ts). */
    ...createCustomerPrivacy({ db, clock, load, preferenceIds: prefsOf }),

    async preferencesOf(caller: EmployeeCaller, id: number) {
      await load(caller, id);
      return (await prefsOf(id)).map((preference_id) => ({ customer_id: id, preference_id }));
    },

    /** Replaces the customer's preferences with exactly this set. */
    async savePreferences(caller: EmployeeCaller, id: number, ids: number[]) {
      await load(caller, id);
      const unique = await db.transaction((tx) => replacePreferences(tx, id, ids));
      return unique.map((preference_id) => ({ customer_id: id, preference_id }));
    },
  };
}
export type CustomerService = ReturnType<typeof createCustomerService>;
