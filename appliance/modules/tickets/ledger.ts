import { and, eq, inArray, sql } from "drizzle-orm";
import { itemLogStates, signatures, ticketLogStates, ticketStates, ticketSubCategories, tickets } from "../../../db/schema";
import { PAID_STATES, stateOnConfirm } from "../../domain/states";
import type { Clock } from "../../platform/clock";
import { notFound, unprocessable } from "../../platform/errors";
import { audit } from "../audit/audit";
import { assertSameAgent, type EmployeeCaller } from "../auth/caller";
import type { Exec } from "./repo";
import { prepared } from "../../../db/prepared";
import { billOfItem, billOfTicket, ticketById } from "./hotReads";
import { recomputeTicket } from "./totals";
import { type Bill, createPaySteps } from "../money/pay";

/** Asked on every state change (twice on a bulk one), built once (db/prepared.ts). */
const stateNamed = prepared((q: Exec) =>
  q
    .select({ id: ticketStates.id })
    .from(ticketStates)
    .where(eq(ticketStates.name, sql.placeholder("name")))
    .limit(1)
    .prepare(),
);

/**
 * The steps the ticket, item and printing use cases share. Each runs on the executor it is
 * given (the database, or the use case's transaction), so a use case made of several steps
 * commits or rolls back as one. Paying is money's (money/pay.ts): the ledger hands it the bill.
 */
export function createLedger(clock: Clock) {
  const now = () => clock.now().toISOString();
  const money = createPaySteps(clock);

  /** A ticket of the caller's shop (HQ: any); another shop's answers 404. */
  async function ticketRow(q: Exec, caller: EmployeeCaller, id: number) {
    const t = await ticketById(q).get({ id });
    if (!t) throw notFound("Ticket");
    assertSameAgent(caller, t.agent_id, "Ticket");
    return t;
  }

  /** A state must be one of the ticket states (data, spec §4). */
  async function assertState(q: Exec, state: string) {
    if (!(await stateNamed(q).get({ name: state }))) throw unprocessable("State: no such ticket state");
  }

  /** A signature is stored once per change and referenced by every log row of it. */
  async function storeSignature(q: Exec, dataUrl: string | null | undefined) {
    if (!dataUrl) return null;
    if (!/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/.test(dataUrl)) throw unprocessable("Signature: must be a PNG, JPEG or WebP data URL");
    const [s] = await q.insert(signatures).values({ data_url: dataUrl, created_at: now() }).returning({ id: signatures.id });
    return s!.id;
  }

  async function logTicket(q: Exec, caller: EmployeeCaller, ticketId: number, state: string, log: string, signatureId: number | null = null) {
    await q
      .insert(ticketLogStates)
      .values({ ticket_id: ticketId, state, logged_at: now(), log, employee_id: caller.employee.id, agent_id: caller.agent.id, signature_id: signatureId });
  }

  /**
   * What a ticket owes, for money's pay steps (money/pay.ts): its figures and its items',
   * oldest first (`itemId`: that item only). Its totals are recomputed first unless the caller
   * just did (`fresh`). Tickets reads; money decides what is taken.
   */
  async function bill(q: Exec, ticketId: number, opts: { itemId?: number; fresh?: boolean } = {}): Promise<Bill> {
    if (!opts.fresh) await recomputeTicket(q, ticketId);
    const t = (await ticketById(q).get({ id: ticketId }))!;
    const items = opts.itemId === undefined ? await billOfTicket(q).all({ ticket: ticketId }) : await billOfItem(q).all({ item: opts.itemId });
    return { ticket: t, items };
  }

  /** The bill of one item (its ticket's figures and its own) as they stand: no recompute. */
  async function itemBill(q: Exec, itemId: number): Promise<Bill> {
    const i = await q.query.ticketSubCategories.findFirst({ where: eq(ticketSubCategories.id, itemId), columns: { ticket_id: true } });
    if (!i) throw notFound("Item");
    return bill(q, i.ticket_id, { itemId, fresh: true });
  }

  /**
   * Confirms a ticket that is not empty (spec §2/§4; printing does this too). A new ticket
   * leaves CREATED: to AWAITING PICKUP when it is to be collected from the client, otherwise
   * to the spec's empty state ("", garments at the counter). Confirming twice changes nothing.
   */
  async function confirm(q: Exec, caller: EmployeeCaller, t: typeof tickets.$inferSelect, opts: { empty?: boolean } = {}) {
    const [item] = await q.select({ id: ticketSubCategories.id }).from(ticketSubCategories).where(eq(ticketSubCategories.ticket_id, t.id)).limit(1);
    if (!item && !opts.empty) throw unprocessable("Ticket is empty");
    if (t.confirmed_at) return;
    const state = stateOnConfirm(t);
    await q.update(tickets).set({ confirmed_at: now(), state }).where(eq(tickets.id, t.id));
    if (state !== t.state) {
      await q
        .update(ticketSubCategories)
        .set({ state })
        .where(and(eq(ticketSubCategories.ticket_id, t.id), eq(ticketSubCategories.state, "CREATED")));
      await logTicket(q, caller, t.id, state, "Ticket confirmed");
    }
  }

  /**
   * Sets a state on items the caller may see (checked before: `found` names each item's
   * ticket), with one signature for the whole change. The ticket's history (the customer's
   * history dialog) shows the change and its signature too. A paid state on an item with a
   * balance takes the balance as paid to the caller.
   */
  async function setItemsState(q: Exec, caller: EmployeeCaller, found: { id: number; ticket_id: number }[], state: string, signature?: string | null) {
    const ids = found.map((f) => f.id);
    await assertState(q, state);
    const sig = await storeSignature(q, signature);
    const at = now();
    await q.update(ticketSubCategories).set({ state }).where(inArray(ticketSubCategories.id, ids));
    await q
      .insert(itemLogStates)
      .values(ids.map((i) => ({ ticket_sub_category_id: i, state, logged_at: at, log: "State changed", employee_id: caller.employee.id, signature_id: sig })));
    const perTicket = new Map<number, number>();
    for (const f of found) perTicket.set(f.ticket_id, (perTicket.get(f.ticket_id) ?? 0) + 1);
    // One insert for every ticket's log row (a scan of 50 items often touches 50 tickets): a
    // statement each was most of this request's own time (issue 33).
    await q.insert(ticketLogStates).values(
      [...perTicket].map(([ticketId, n]) => ({
        ticket_id: ticketId,
        state,
        logged_at: at,
        log: `${n} item${n === 1 ? "" : "s"} set to ${state || "(none)"}`,
        employee_id: caller.employee.id,
        agent_id: caller.agent.id,
        signature_id: sig,
      })),
    );
    await audit(q, clock.now(), caller, "change_state", "ticket_sub_category", null, { ids, state });
    if (PAID_STATES.includes(state)) {
      for (const ticketId of perTicket.keys()) await recomputeTicket(q, ticketId);
      for (const f of found) {
        const i = f.id;
        const taken = await money.payItem(q, caller, await bill(q, f.ticket_id, { itemId: i, fresh: true }), i, null);
        if (taken > 0) await audit(q, clock.now(), caller, "payment", "ticket_sub_category", i, { amount_cents: taken, state });
      }
    }
  }

  return { ticketRow, assertState, storeSignature, logTicket, bill, itemBill, confirm, setItemsState };
}
export type Ledger = ReturnType<typeof createLedger>;
