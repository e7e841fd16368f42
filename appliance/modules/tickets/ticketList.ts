/**
 * The ticket lists: the counter's list (spec §2, two index scans; see `list`) and a
 * customer's tickets, each row with what is left to pay.
 */
import { and, count, desc, eq, inArray, isNull, like, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { customers, tickets } from "../../../db/schema";
import { DONE_STATES } from "../../domain/states";
import { agentScope, type EmployeeCaller } from "../auth/caller";
import type { TicketListRow, TicketSummary } from "./model";
import { groupBy, loadItems, loadTicketLogs } from "./repo";
import { balanceDue } from "../../domain/money";

export function createTicketLists(db: Db) {
  /**
   * A list search term: digits match the ticket id or a mobile number, words a customer's
   * name. The customers are looked up first (a scan of customers, not of every ticket); when
   * too many match, the term filters the join instead (matches are then dense and quick to find).
   */
  async function termFilter(term: string | undefined): Promise<SQL | undefined> {
    if (!term) return undefined;
    const pattern = `%${term.replace(/[%_]/g, "")}%`;
    const numeric = /^\d+$/.test(term);
    const byCustomer = numeric ? like(customers.mobile, pattern) : like(customers.full_name, pattern);
    const found = await db.select({ id: customers.id }).from(customers).where(byCustomer).limit(501);
    const matched =
      found.length > 500
        ? byCustomer
        : found.length
          ? inArray(
              tickets.customer_id,
              found.map((c) => c.id),
            )
          : sql`0`;
    return numeric ? or(eq(tickets.id, Number(term)), matched) : matched;
  }

  return {
    async byCustomer(caller: EmployeeCaller, customerId: number) {
      const scope = agentScope(caller);
      const rows = await db
        .select()
        .from(tickets)
        .where(and(eq(tickets.customer_id, customerId), scope ? inArray(tickets.agent_id, scope) : undefined))
        .orderBy(desc(tickets.id))
        .limit(500);
      return rows.map(summary);
    },

    /**
     * The ticket list (spec §2): CREATED tickets are hidden, newest first, 10 at a time with
     * "load more"; term matches the ticket number or the customer's name or phone.
     */
    /**
     * Spec §2/§4: the ticket list without CREATED, DELIVERED last, newest first. Sorting the
     * whole table on "state = DELIVERED" took 1–3 s on 500k tickets (and libSQL holds the
     * event loop meanwhile), so the page is read as two index scans newest first: the tickets
     * that are not DELIVERED, then, when those run out, the DELIVERED ones. A search term is
     * first resolved to its customers, so the tickets come from the customer index.
     */
    async list(
      caller: EmployeeCaller,
      q: {
        limit: number;
        offset: number;
        notState: string[];
        confirmed?: boolean;
        date?: string;
        term?: string;
        withChildren: boolean;
        tab?: "all" | "open" | "done" | "unconfirmed";
      },
    ) {
      const scope = agentScope(caller);
      const termWhere = await termFilter(q.term?.trim());
      const doneStates = sql.join(
        DONE_STATES.map((s) => sql`${s}`),
        sql`, `,
      );
      const base = and(
        scope ? inArray(tickets.agent_id, scope) : undefined,
        // Unconfirmed tickets are still CREATED (being written at the counter): asking for them
        // (confirmed_at=false) is the one way to list CREATED tickets (issue 25).
        q.confirmed === false ? undefined : ne(tickets.state, "CREATED"),
        q.tab === "open" ? sql`${tickets.state} NOT IN (${doneStates})` : q.tab === "done" ? sql`${tickets.state} IN (${doneStates})` : undefined,
        q.notState.length
          ? sql`${tickets.state} NOT IN (${sql.join(
              q.notState.map((s) => sql`${s}`),
              sql`, `,
            )})`
          : undefined,
        q.confirmed === true ? sql`${tickets.confirmed_at} IS NOT NULL` : q.confirmed === false ? isNull(tickets.confirmed_at) : undefined,
        q.date ? or(eq(tickets.pickup_date, q.date), eq(tickets.delivery_date, q.date)) : undefined,
        termWhere,
      );
      // Without a term the filters are the ticket's own: the page's ids are found on the
      // tickets alone, so OFFSET skips bare rows (joining each skipped row to its customer
      // cost seconds deep in 500k tickets, issue 26's import), then those rows are read whole.
      const joinFirst = termWhere !== undefined;
      const page = async (delivered: boolean, limit: number, offset: number) => {
        const where = and(base, delivered ? eq(tickets.state, "DELIVERED") : ne(tickets.state, "DELIVERED"));
        const full = () =>
          db
            .select({ t: tickets, customer: customers.full_name, mobile: customers.mobile })
            .from(tickets)
            .innerJoin(customers, eq(customers.id, tickets.customer_id));
        if (joinFirst) return full().where(where).orderBy(desc(tickets.id)).limit(limit).offset(offset);
        const ids = (await db.select({ id: tickets.id }).from(tickets).where(where).orderBy(desc(tickets.id)).limit(limit).offset(offset)).map((r) => r.id);
        return ids.length ? full().where(inArray(tickets.id, ids)).orderBy(desc(tickets.id)) : [];
      };
      let rows = await page(false, q.limit, q.offset);
      if (rows.length < q.limit) {
        // How many not-DELIVERED tickets come before the DELIVERED ones: known when this page
        // reached their end, counted when the page starts beyond it.
        const before = rows.length
          ? q.offset + rows.length
          : Number(
              (
                await (joinFirst
                  ? db.select({ n: count() }).from(tickets).innerJoin(customers, eq(customers.id, tickets.customer_id))
                  : db.select({ n: count() }).from(tickets)
                ).where(and(base, ne(tickets.state, "DELIVERED")))
              )[0]?.n ?? 0,
            );
        rows = rows.concat(await page(true, q.limit - rows.length, Math.max(0, q.offset - before)));
      }
      const ids = rows.map((r) => r.t.id);
      const items = q.withChildren && rows.length ? await loadItems(db, { ticketIds: ids }) : [];
      // A ticket's children are its items and its state history (spec §3 Ticket): a whole page
      // in one answer, so an import does not ask for each ticket's history on its own (issue 26).
      const logs = q.withChildren && rows.length ? await loadTicketLogs(db, ids) : [];
      const itemsOf = groupBy(items, (i) => i.ticket_id);
      const logsOf = groupBy(logs, (l) => l.ticket_id);
      return rows.map(
        (r): TicketListRow => ({
          ...summary(r.t),
          customer: { full_name: r.customer, mobile: r.mobile },
          ...(q.withChildren ? { ticket_sub_categories: itemsOf.get(r.t.id) ?? [], ticket_log_states: logsOf.get(r.t.id) ?? [] } : {}),
        }),
      );
    },
  };
}

/** A ticket row with what is left to pay (cents). */
export function summary(t: typeof tickets.$inferSelect): TicketSummary {
  return { ...t, balance: balanceDue(t.total, t.total_paid) };
}
