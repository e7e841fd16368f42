import { and, asc, count, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { customers, employeeOwings, itemLogStates, ticketStates, ticketSubCategories, tickets } from "../../../db/schema";
import { addDays, businessDay } from "../../domain/dates";
import { balanceDue, clampPercent, formatDiscount, parseDiscount } from "../../domain/money";
import { accountForCharge } from "../accounts/service";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import { agentScope, assertSameAgent } from "../auth/caller";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { type ApprovalInput, type ApprovalService, approvedBy } from "../approval/service";
import { audit } from "../audit/audit";
import { assertAddressVisible, type PlaceService } from "../places/service";
import { PAID_STATES } from "../../domain/states";
import { CASH, createPaySteps, type PayWith } from "../money/pay";
import { createLedger } from "./ledger";
import { hasPayments } from "../money/service";
import type { StateChange, Ticket, TicketBody } from "./model";
import { type Exec, loadItems, loadTicket, loadTicketLogs, type TicketRecord } from "./repo";
import type { SignatureStore } from "./signatures";
import { createTicketLists } from "./ticketList";
import { recomputeTicket } from "./totals";
import { createVanStops, DEFAULT_DAYS_AHEAD, type VanCapacity } from "./vanStops";

export { DEFAULT_DAYS_AHEAD, type VanCapacity };

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
  const money = createPaySteps(clock);
  const { stopsOf, fullStopsAdded, approveFullDays, defaultDay } = createVanStops({ db, clock, approvals, scheduling });
  const lists = createTicketLists(db);
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

  return {
    view,
    byCustomer: lists.byCustomer,
    list: lists.list,

    /**
     * Opens a ticket. Without dates, pickup and delivery default to 7 days out, moved to the
     * first day with room in the customer's locality; a stop booked on a full day needs a manager.
     */
    /**
     * `within` runs in the ticket's own transaction (issue 35: an online booking confirms the
     * ticket and records its id there, so a crash leaves either all of it or none, never an
     * unrecorded ticket that a resume would make again).
     */
    async create(caller: EmployeeCaller, input: TicketInput, approval: ApprovalInput, within?: (tx: Exec, id: number) => Promise<void>) {
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
        if (within) await within(tx, t!.id);
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

    /**
     * Issue 35: a pickup booked online is confirmed before anyone has seen the garments (the
     * driver counts them at the door), so it is on the scheduler and the run as AWAITING PICKUP.
     * In the caller's transaction (the ticket's own, `create`'s `within`).
     */
    async confirmBookedPickupIn(tx: Exec, caller: EmployeeCaller, id: number) {
      const t = await ledger.ticketRow(tx, caller, id);
      if (!t.pickup_from_client) throw unprocessable("Only a pickup from the client is confirmed without garments");
      await ledger.confirm(tx, caller, t, { empty: true });
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
      const t = await row(caller, id);
      if (pay.tender === "account")
        pay = {
          ...pay,
          account: await accountForCharge(
            db,
            approvals,
            caller,
            t.customer_id,
            cents ?? balanceDue(t.total, t.total_paid),
            pay.approval ?? { client: "local" },
          ),
        };
      await db.transaction(async (tx) => {
        const taken = await money.payTicket(tx, caller, await ledger.bill(tx, id), cents, pay);
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
              const taken = await money.payTicket(tx, caller, await ledger.bill(tx, id), null);
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
