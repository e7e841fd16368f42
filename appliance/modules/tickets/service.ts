import { and, asc, count, desc, eq, inArray, isNull, like, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { addresses, customers, employeeOwings, itemLogStates, localities, ticketStates, ticketSubCategories, tickets } from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { displayDate } from "../../domain/format";
import { clampPercent, formatDiscount, parseDiscount } from "../../domain/money";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import { agentScope, assertSameAgent } from "../auth/caller";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { type ApprovalInput, type ApprovalService, approvedBy } from "../approval/service";
import { audit } from "../audit/audit";
import { assertAddressVisible, type PlaceService } from "../places/service";
import type { SchedulingService } from "../scheduling/service";
import { DONE_STATES, PAID_STATES } from "../../domain/states";
import { CASH, createLedger, type PayWith } from "./ledger";
import { hasPayments } from "../payments/service";
import type { StateChange, Ticket, TicketBody, TicketListRow, TicketSummary } from "./model";
import { type Exec, loadItems, loadTicket, loadTicketLogs, type TicketRecord } from "./repo";
import type { SignatureStore } from "./signatures";
import { recomputeTicket } from "./totals";

/** Spec §9: a new ticket's pickup and delivery default to 7 days from today. */
export const DEFAULT_DAYS_AHEAD = 7;

/** A new ticket as the route passes it: the charges in cents. */
export type TicketInput = TicketBody;

/** The counter's pickup and delivery options as the routes pass them (charges in cents; null address: the customer's home). */
export type TicketOptionsInput = Partial<
  Pick<
    typeof tickets.$inferInsert,
    | "pickup_from_client"
    | "delivery_to_client"
    | "pickup_date"
    | "delivery_date"
    | "pickup_comment"
    | "delivery_comment"
    | "pickup_address_id"
    | "delivery_address_id"
    | "pickup_charge"
    | "delivery_charge"
  >
>;

/** What the counter asks the scheduling module: the vans' settings and a locality's room per day. */
export type VanCapacity = Pick<SchedulingService, "listPickupDeliveries" | "availability">;

type TicketRow = typeof tickets.$inferSelect;
type StopFields = Pick<
  TicketRow,
  "customer_id" | "pickup_from_client" | "delivery_to_client" | "pickup_date" | "delivery_date" | "pickup_address_id" | "delivery_address_id"
>;
const LEGS = ["pickup", "delivery"] as const;
type Leg = (typeof LEGS)[number];
/** A van stop: a leg to or from the client on a day, in a locality. */
interface Stop {
  leg: Leg;
  date: string;
  locality_id: number;
}

export function createTicketService({
  db,
  clock,
  approvals,
  places,
  scheduling,
  signatures,
}: {
  db: Db;
  clock: Clock;
  approvals: ApprovalService;
  places: Pick<PlaceService, "listAddresses">;
  scheduling: VanCapacity;
  /** Caps signatures and counts them against the shop's storage (shared with the item service). */
  signatures: SignatureStore;
}) {
  const now = () => clock.now().toISOString();

  const ledger = createLedger(clock);
  const row = (caller: EmployeeCaller, id: number) => ledger.ticketRow(db, caller, id);

  /**
   * Spec §3: a ticket carries its customer's, pickup and delivery address objects. The van
   * goes to the ticket's own address, else the customer's home; an address the caller's shop
   * may not see (the places module's rule) is left out (null).
   */
  async function withAddresses(caller: EmployeeCaller, t: TicketRecord): Promise<Ticket> {
    const home = t.customer.address_id;
    const pickupId = t.pickup_address_id ?? home;
    const deliveryId = t.delivery_address_id ?? home;
    const ids = [...new Set([home, pickupId, deliveryId].filter((a): a is number => a != null))];
    const seen = new Map((ids.length ? await places.listAddresses(caller, ids) : []).map((a) => [a.id, a]));
    const of = (id: number | null) => (id == null ? null : (seen.get(id) ?? null));
    return { ...t, customer: { ...t.customer, address: of(home) }, pickup_address: of(pickupId), delivery_address: of(deliveryId) };
  }

  /** One read: the agent check uses the loaded ticket rather than a second query. */
  async function view(caller: EmployeeCaller, id: number) {
    const t = await loadTicket(db, id);
    if (!t) throw notFound("Ticket");
    assertSameAgent(caller, t.agent_id, "Ticket");
    return withAddresses(caller, t);
  }

  // ------------------------------------------------------------ van stops

  /** The van stops a ticket books: each leg to or from the client with a day, in its address's locality (else the customer's home's). */
  async function stopsOf(t: StopFields): Promise<Stop[]> {
    const wanted = LEGS.filter((leg) => (leg === "pickup" ? t.pickup_from_client : t.delivery_to_client) && t[`${leg}_date`]);
    if (!wanted.length) return [];
    const customer = await db.query.customers.findFirst({ where: eq(customers.id, t.customer_id), columns: { address_id: true } });
    const addressOf = (leg: Leg) => t[`${leg}_address_id`] ?? customer?.address_id ?? null;
    const ids = [...new Set(wanted.map(addressOf).filter((a): a is number => a != null))];
    const rows = ids.length ? await db.select({ id: addresses.id, locality_id: addresses.locality_id }).from(addresses).where(inArray(addresses.id, ids)) : [];
    const locality = new Map(rows.map((r) => [r.id, r.locality_id]));
    return wanted.flatMap((leg) => {
      const l = locality.get(addressOf(leg) ?? 0);
      return l ? [{ leg, date: t[`${leg}_date`]!, locality_id: l }] : [];
    });
  }

  /**
   * Stops a change adds (a leg turned on, or moved to another day or locality) on days their
   * locality has no room left for them. The scheduling module counts what is booked; a
   * locality that no pickup/delivery setting names has no known limit, so it is never full.
   */
  async function fullStopsAdded(before: Stop[], after: Stop[]) {
    const added = after.filter((s) => !before.some((b) => b.leg === s.leg && b.date === s.date && b.locality_id === s.locality_id));
    if (!added.length) return [];
    const settings = await scheduling.listPickupDeliveries();
    const full: (Stop & { locality: string })[] = [];
    for (const s of added) {
      if (!settings.some((x) => x.locality_ids.includes(s.locality_id))) continue;
      const { days } = await scheduling.availability({ locality: s.locality_id, from: s.date, days: 1 });
      const sameDay = added.filter((o) => o.date === s.date && o.locality_id === s.locality_id).length;
      if ((days[0]?.left ?? 0) < sameDay) {
        const [l] = await db.select({ name: localities.name }).from(localities).where(eq(localities.id, s.locality_id));
        full.push({ ...s, locality: l?.name ?? `#${s.locality_id}` });
      }
    }
    return full;
  }

  /** A manager's approval for booking full days (managers and admins act alone); null when none is needed or they acted alone. */
  async function approveFullDays(caller: EmployeeCaller, full: (Stop & { locality: string })[], approval: ApprovalInput) {
    if (!full.length) return null;
    const what = full.map((s) => `a ${s.leg} in ${s.locality} on ${displayDate(s.date)}`).join(" and ");
    return approvals.approve(caller, approval, `${what}, a full day`);
  }

  /** The default pickup and delivery day: 7 days out (spec §9), moved to the first day with room in the customer's locality. */
  async function defaultDay(addressId: number | null): Promise<string> {
    const inAWeek = addDays(businessDay(clock.now()), DEFAULT_DAYS_AHEAD);
    if (!addressId) return inAWeek;
    const [a] = await db.select({ locality_id: addresses.locality_id }).from(addresses).where(eq(addresses.id, addressId));
    if (!a || !(await scheduling.listPickupDeliveries()).some((s) => s.locality_ids.includes(a.locality_id))) return inAWeek;
    return (await scheduling.availability({ locality: a.locality_id, from: inAWeek, days: 7, default_date: inAWeek })).proposed ?? inAWeek;
  }

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
    view,

    /**
     * Opens a ticket. Without dates, pickup and delivery default to 7 days out, moved to the
     * first day with room in the customer's locality; a stop booked on a full day needs a manager.
     */
    async create(caller: EmployeeCaller, input: TicketInput, approval: ApprovalInput) {
      const customer = await db.query.customers.findFirst({
        where: eq(customers.id, input.customer_id),
        columns: { id: true, agent_id: true, address_id: true },
      });
      if (!customer) throw unprocessable("customer_id: no such customer");
      assertSameAgent(caller, customer.agent_id, "Customer");
      for (const a of [input.pickup_address_id, input.delivery_address_id]) await assertAddressVisible(db, caller, a);
      // Spec §9: 7 days out. Only a leg the van goes on looks for room: a ticket with neither
      // pickup nor delivery keeps +7 whatever the van's room (issue 25). Delivery = pickup day.
      const vanGoes = !!(input.pickup_from_client || input.delivery_to_client);
      const byDefault =
        input.pickup_date === undefined || input.delivery_date === undefined
          ? vanGoes
            ? await defaultDay(customer.address_id)
            : addDays(businessDay(clock.now()), DEFAULT_DAYS_AHEAD)
          : null;
      const { pickup_charge, delivery_charge, ...rest } = input;
      const values = {
        ...rest,
        pickup_date: input.pickup_date === undefined ? byDefault : input.pickup_date,
        delivery_date: input.delivery_date === undefined ? byDefault : input.delivery_date,
        pickup_address_id: input.pickup_address_id ?? customer.address_id,
        delivery_address_id: input.delivery_address_id ?? customer.address_id,
        pickup_from_client: input.pickup_from_client ?? false,
        delivery_to_client: input.delivery_to_client ?? false,
      };
      const full = await fullStopsAdded([], await stopsOf(values));
      const approver = await approveFullDays(caller, full, approval);
      const id = await db.transaction(async (tx) => {
        const [t] = await tx
          .insert(tickets)
          .values({
            ...values,
            pickup_charge: pickup_charge ?? 0,
            delivery_charge: delivery_charge ?? 0,
            agent_id: caller.agent.id,
            employee_id: caller.employee.id,
            state: "CREATED",
            created_at: now(),
          })
          .returning({ id: tickets.id });
        await ledger.logTicket(tx, caller, t!.id, "CREATED", "Ticket created");
        await recomputeTicket(tx, t!.id);
        if (full.length) await audit(tx, clock.now(), caller, "book_full_day", "ticket", t!.id, { stops: full, ...approvedBy(approver) });
        return t!.id;
      });
      return view(caller, id);
    },

    /** Spec §4: the customer's last ticket that was never confirmed, or 404. */
    async lastNonConfirmed(caller: EmployeeCaller, customerId: number) {
      const scope = agentScope(caller);
      const [t] = await db
        .select({ id: tickets.id })
        .from(tickets)
        .where(and(eq(tickets.customer_id, customerId), isNull(tickets.confirmed_at), scope ? inArray(tickets.agent_id, scope) : undefined))
        .orderBy(desc(tickets.id))
        .limit(1);
      if (!t) throw notFound("Open ticket");
      return view(caller, t.id);
    },

    async logs(caller: EmployeeCaller, id: number) {
      await row(caller, id);
      return loadTicketLogs(db, id);
    },

    async children(caller: EmployeeCaller, id: number) {
      await row(caller, id);
      return loadItems(db, { ticketIds: [id] });
    },

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
      const page = (delivered: boolean, limit: number, offset: number) =>
        db
          .select({ t: tickets, customer: customers.full_name, mobile: customers.mobile })
          .from(tickets)
          .innerJoin(customers, eq(customers.id, tickets.customer_id))
          .where(and(base, delivered ? eq(tickets.state, "DELIVERED") : ne(tickets.state, "DELIVERED")))
          .orderBy(desc(tickets.id))
          .limit(limit)
          .offset(offset);
      let rows = await page(false, q.limit, q.offset);
      if (rows.length < q.limit) {
        // How many not-DELIVERED tickets come before the DELIVERED ones: known when this page
        // reached their end, counted when the page starts beyond it.
        const before = rows.length
          ? q.offset + rows.length
          : Number(
              (
                await db
                  .select({ n: count() })
                  .from(tickets)
                  .innerJoin(customers, eq(customers.id, tickets.customer_id))
                  .where(and(base, ne(tickets.state, "DELIVERED")))
              )[0]?.n ?? 0,
            );
        rows = rows.concat(await page(true, q.limit - rows.length, Math.max(0, q.offset - before)));
      }
      const ids = rows.map((r) => r.t.id);
      const items = q.withChildren && rows.length ? await loadItems(db, { ticketIds: ids }) : [];
      // A ticket's children are its items and its state history (spec §3 Ticket): a whole page
      // in one answer, so an import does not ask for each ticket's history on its own (issue 26).
      const logs = q.withChildren && rows.length ? await loadTicketLogs(db, ids) : [];
      return rows.map(
        (r): TicketListRow => ({
          ...summary(r.t),
          customer: { full_name: r.customer, mobile: r.mobile },
          ...(q.withChildren
            ? { ticket_sub_categories: items.filter((i) => i.ticket_id === r.t.id), ticket_log_states: logs.filter((l) => l.ticket_id === r.t.id) }
            : {}),
        }),
      );
    },

    /**
     * A ticket with money taken cannot be deleted. One with items (or confirmed) is deleted by
     * a manager or admin, or with their approval; an empty draft by anyone.
     */
    async remove(caller: EmployeeCaller, id: number, approval: ApprovalInput) {
      const t = await row(caller, id);
      // Owings are payments too, even when a later change brought total_paid back to 0.
      const [owings] = await db.select({ n: count() }).from(employeeOwings).where(eq(employeeOwings.ticket_id, id));
      if (t.total_paid > 0 || (owings?.n ?? 0) > 0 || (await hasPayments(db, { ticket: t.id }))) throw conflict("Ticket has payments; it cannot be deleted");
      const [item] = await db.select({ id: ticketSubCategories.id }).from(ticketSubCategories).where(eq(ticketSubCategories.ticket_id, id)).limit(1);
      const approver = item || t.confirmed_at ? await approvals.approve(caller, approval, "deleting a ticket with items") : null;
      await db.transaction(async (tx) => {
        await tx.delete(tickets).where(eq(tickets.id, id));
        await audit(tx, clock.now(), caller, "delete", "ticket", id, { total: t.total, customer_id: t.customer_id, ...approvedBy(approver) });
      });
      return true;
    },

    /** Confirms a ticket (the rules: ledger.confirm; printing confirms in its own transaction). */
    async confirm(caller: EmployeeCaller, id: number) {
      const t = await row(caller, id);
      await db.transaction((tx) => ledger.confirm(tx, caller, t));
      return view(caller, id);
    },

    /** Confirms inside the caller's transaction: the receipt's print jobs commit with it, or neither does. */
    async confirmIn(tx: Exec, caller: EmployeeCaller, id: number) {
      const t = await ledger.ticketRow(tx, caller, id);
      await ledger.confirm(tx, caller, t);
    },

    /**
     * The counter's pickup and delivery options (spec §7 deliveryPickupOptions, /pickup and
     * /delivery): only the fields given change. A van stop added on a day its locality is full
     * needs a manager's approval and is audited with both names; charges re-price the ticket.
     */
    async setOptions(caller: EmployeeCaller, id: number, set: TicketOptionsInput, approval: ApprovalInput) {
      const t = await row(caller, id);
      for (const a of [set.pickup_address_id, set.delivery_address_id]) await assertAddressVisible(db, caller, a);
      const full = await fullStopsAdded(await stopsOf(t), await stopsOf({ ...t, ...set }));
      const approver = await approveFullDays(caller, full, approval);
      if (Object.keys(set).length) {
        await db.transaction(async (tx) => {
          await tx.update(tickets).set(set).where(eq(tickets.id, id));
          if (set.pickup_charge !== undefined || set.delivery_charge !== undefined) {
            await recomputeTicket(tx, id);
            const charges = {
              pickup_charge: [t.pickup_charge, set.pickup_charge ?? t.pickup_charge],
              delivery_charge: [t.delivery_charge, set.delivery_charge ?? t.delivery_charge],
            };
            await audit(tx, clock.now(), caller, "charges", "ticket", id, charges);
          }
          if (full.length) await audit(tx, clock.now(), caller, "book_full_day", "ticket", id, { stops: full, ...approvedBy(approver) });
        });
      }
      return view(caller, id);
    },

    /**
     * The addresses the ticket's customer may be visited at: their home first, then the other
     * addresses their tickets went to (only those the caller's shop may see).
     */
    async customerAddresses(caller: EmployeeCaller, id: number) {
      const t = await row(caller, id);
      const customer = await db.query.customers.findFirst({ where: eq(customers.id, t.customer_id), columns: { address_id: true } });
      const used = await db
        .selectDistinct({ p: tickets.pickup_address_id, d: tickets.delivery_address_id })
        .from(tickets)
        .where(eq(tickets.customer_id, t.customer_id))
        .limit(200);
      const ids = [...new Set([customer?.address_id, ...used.flatMap((u) => [u.p, u.d])].filter((a): a is number => a != null))];
      const list = ids.length ? await places.listAddresses(caller, ids) : [];
      return list.sort((a, b) => Number(b.id === customer?.address_id) - Number(a.id === customer?.address_id) || a.id - b.id);
    },

    /** Spec §5: clamped to 0..100; above the discount limit, a manager's approval (issue 11). */
    async setDiscount(caller: EmployeeCaller, id: number, percent: number, approval: ApprovalInput) {
      const t = await row(caller, id);
      const discount = formatDiscount(clampPercent(percent));
      const approver = await approvals.approveDiscount(caller, approval, parseDiscount(discount), "a ticket discount");
      await db.transaction(async (tx) => {
        await tx.update(tickets).set({ discount }).where(eq(tickets.id, id));
        await recomputeTicket(tx, id);
        await audit(tx, clock.now(), caller, "discount", "ticket", id, { before: t.discount, after: discount, ...approvedBy(approver) });
      });
      return view(caller, id);
    },

    /** Pays the whole ticket: every item its total, and the ticket's charges. */
    /**
     * Spec: pays the ticket in full (or `cents` of it: a part of a split tender), by `pay`'s
     * tender. Never lowers what was paid: money leaves only by a refund (payments module).
     * An import records past amounts through here with tender "other", its time and employee.
     */
    async payInFull(caller: EmployeeCaller, id: number, pay: PayWith = CASH, cents: number | null = null) {
      await row(caller, id);
      await db.transaction(async (tx) => {
        const taken = await ledger.payTicket(tx, caller, id, cents, pay);
        if (taken > 0) await audit(tx, clock.now(), caller, "pay_in_full", "ticket", id, { amount_cents: taken, tender: pay.tender });
      });
      return view(caller, id);
    },

    /**
     * Spec §4: any state can be set; a ticket's state is set on every one of its lines. One
     * signature (if drawn) is stored once and referenced by every log row of the change.
     * A paid state on a ticket with a balance takes the balance as paid to the caller.
     */
    async changeState(caller: EmployeeCaller, change: StateChange) {
      const ids = [...new Set(change.Ids)];
      await ledger.assertState(db, change.State);
      const found = await db.select({ id: tickets.id, agent_id: tickets.agent_id }).from(tickets).where(inArray(tickets.id, ids));
      if (found.length !== ids.length) throw notFound("Ticket");
      for (const t of found) assertSameAgent(caller, t.agent_id, "Ticket");
      const hold = await signatures.hold(caller.agent.id, change.Signature);
      await db
        .transaction(async (tx) => {
          const sig = await ledger.storeSignature(tx, change.Signature);
          const at = now();
          await tx.update(tickets).set({ state: change.State }).where(inArray(tickets.id, ids));
          const items = await tx.select({ id: ticketSubCategories.id }).from(ticketSubCategories).where(inArray(ticketSubCategories.ticket_id, ids));
          if (items.length) {
            await tx.update(ticketSubCategories).set({ state: change.State }).where(inArray(ticketSubCategories.ticket_id, ids));
            await tx.insert(itemLogStates).values(
              items.map((i) => ({
                ticket_sub_category_id: i.id,
                state: change.State,
                logged_at: at,
                log: "State changed with the ticket",
                employee_id: caller.employee.id,
                signature_id: sig,
              })),
            );
          }
          for (const id of ids) await ledger.logTicket(tx, caller, id, change.State, "State changed", sig);
          await audit(tx, clock.now(), caller, "change_state", "ticket", null, { ids, state: change.State });
          if (PAID_STATES.includes(change.State)) {
            for (const id of ids) {
              const taken = await ledger.payTicket(tx, caller, id, null);
              if (taken > 0) await audit(tx, clock.now(), caller, "payment", "ticket", id, { amount_cents: taken, state: change.State });
            }
          }
        })
        .catch((e) => {
          hold?.release();
          throw e;
        });
      return { success: true, count: ids.length };
    },

    /** Ticket states in their order (admins may add locality delivery states). */
    states: () => db.select().from(ticketStates).orderBy(asc(ticketStates.position)),
  };
}
export type TicketService = ReturnType<typeof createTicketService>;

/** A ticket row with what is left to pay (cents). */
function summary(t: typeof tickets.$inferSelect): TicketSummary {
  return { ...t, balance: Math.max(0, t.total - t.total_paid) };
}
