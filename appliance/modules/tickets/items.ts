import { and, count, eq, inArray, isNotNull, notInArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import {
  employeeOwings,
  garmentCategories,
  garmentSubCategories,
  images as imagesTable,
  modifiers,
  ticketSubCategories,
  ticketSubCategoryActions,
  ticketSubCategoryModifiers,
  tickets,
} from "../../../db/schema";
import { expressDeliveryDate } from "../../domain/express";
import { DONE_STATES } from "../../domain/states";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import { agentScope, assertSameAgent } from "../auth/caller";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { balanceDue, parseDiscount, toEuros } from "../../domain/money";
import { accountForCharge } from "../accounts/service";
import { type ApprovalInput, type ApprovalService, approvedBy } from "../approval/service";
import { audit } from "../audit/audit";
import { allowedActions, assertActionsAllowed } from "../catalogue/actionAccess";
import { assertImagesVisible } from "../images/service";
import { type Exec, itemsWithShop, loadItems, unitPrice } from "./repo";
import { CASH, createPaySteps, type PayWith } from "../money/pay";
import { createLedger } from "./ledger";
import { actionById, itemModifier, modifierById } from "./hotReads";
import type { SignatureStore } from "./signatures";
import { hasPayments } from "../money/service";
import type { Item, ItemBody, ItemUpdate as ItemUpdateBody, StateChange } from "./model";
import { recomputeTicket } from "./totals";

export type ItemInput = ItemBody;
/** An item's changes as the route passes them: total_override in cents (null removes it). */
export type ItemUpdate = ItemUpdateBody;

const splitPieces = (s: string) =>
  s
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
/** Spec §5: pieces with no entries count as one piece (the garment itself). */
export const pieceList = (pieces: string, description: string) => {
  const list = splitPieces(pieces);
  return list.length ? list : [description || "Item"];
};

export function createItemService({
  db,
  clock,
  approvals,
  signatures,
}: {
  db: Db;
  clock: Clock;
  approvals: ApprovalService;
  /** Caps signatures and counts them against the shop's storage (shared with the ticket service). */
  signatures: SignatureStore;
}) {
  const now = () => clock.now().toISOString();
  const ledger = createLedger(clock);
  const money = createPaySteps(clock);

  async function item(caller: EmployeeCaller, id: number, q: Exec = db) {
    const i = await q.query.ticketSubCategories.findFirst({ where: eq(ticketSubCategories.id, id) });
    if (!i) throw notFound("Item");
    await ledger.ticketRow(q, caller, i.ticket_id);
    return i;
  }
  const one = async (id: number): Promise<Item> => (await loadItems(db, { itemIds: [id] }))[0]!;

  /** Items by id with their ticket, each one the caller may see; any other answers 404. */
  async function visibleItems(caller: EmployeeCaller, ids: number[], q: Exec = db) {
    const found = await itemsWithShop(q).all({ ids: JSON.stringify(ids) });
    if (found.length !== ids.length) throw notFound("Item");
    for (const f of found) assertSameAgent(caller, f.agent_id, "Item");
    return found;
  }

  /** Changes an item and re-prices its ticket in the same transaction; returns the item. */
  async function reprice(cur: { id: number; ticket_id: number }, change: (tx: Exec) => Promise<unknown>) {
    await db.transaction(async (tx) => {
      await change(tx);
      await recomputeTicket(tx, cur.ticket_id);
    });
    return one(cur.id);
  }

  async function garment(q: Exec, id: number) {
    const g = await q
      .select({ g: garmentSubCategories, default_action_id: garmentCategories.default_action_id })
      .from(garmentSubCategories)
      .innerJoin(garmentCategories, eq(garmentCategories.id, garmentSubCategories.garment_category_id))
      .where(eq(garmentSubCategories.id, id));
    if (!g[0]) throw unprocessable("garment_sub_category_id: no such garment");
    return g[0];
  }

  async function addActionRow(q: Exec, itemId: number, garmentId: number, actionId: number, quantity = 1, images: number[] = [], override = false) {
    const a = await actionById(q).get({ id: actionId });
    if (!a) throw unprocessable("action_id: no such action");
    // Spec §5: an action that needs images needs an upload or an explicit override.
    if (a.images_required && images.length === 0 && !override) throw unprocessable("Need to select image!");
    if (images.length) {
      const found = await q.select({ id: imagesTable.id }).from(imagesTable).where(inArray(imagesTable.id, images));
      if (found.length !== new Set(images).size) throw unprocessable("images: unknown image id");
    }
    const price = await unitPrice(q, garmentId, actionId);
    const [row] = await q
      .insert(ticketSubCategoryActions)
      .values({ ticket_sub_category_id: itemId, action_id: actionId, name: a.name, quantity, price, images: JSON.stringify(images) })
      .returning();
    return row!;
  }

  async function addModifierRow(q: Exec, itemId: number, modifierId: number) {
    const m = await modifierById(q).get({ id: modifierId });
    if (!m) throw unprocessable("modifier_id: no such modifier");
    const dup = await itemModifier(q).get({ item: itemId, modifier: modifierId });
    if (dup) throw conflict("This modifier is already on the item");
    const [row] = await q
      .insert(ticketSubCategoryModifiers)
      .values({ ticket_sub_category_id: itemId, modifier_id: modifierId, modifier_type: m.type })
      .returning();
    return row!;
  }

  return {
    get: async (caller: EmployeeCaller, id: number) => (await item(caller, id), one(id)),

    /** Adds `copies` identical lines (spec: copies default 1). */
    async add(caller: EmployeeCaller, input: ItemInput, copies: number) {
      const t = await ledger.ticketRow(db, caller, input.ticket_id);
      const g = await garment(db, input.garment_sub_category_id);
      const pieces = input.pieces ?? g.g.pieces;
      if (g.g.show_choose_pieces && input.pieces !== undefined && splitPieces(input.pieces).length === 0)
        throw unprocessable("At least one piece must be selected!");
      // Spec §6 can_see_action: a shop limited to some actions neither sends a hidden one nor gets
      // the category's default when that one is hidden.
      if (input.actions) await assertActionsAllowed(db, caller, input.actions);
      const allowed = input.actions ? null : await allowedActions(db, caller);
      const useDefault = g.default_action_id && (!allowed || allowed.has(g.default_action_id));
      const actionIds = input.actions ?? (useDefault ? [g.default_action_id!] : []);
      const ids = await db.transaction(async (tx) => {
        const made: number[] = [];
        for (let c = 0; c < copies; c++) {
          const [row] = await tx
            .insert(ticketSubCategories)
            .values({
              ticket_id: t.id,
              garment_sub_category_id: g.g.id,
              description: input.description ?? g.g.name,
              pieces,
              quantity: g.g.allow_quantity ? (input.quantity ?? 1) : 1,
              comments: input.comments ?? "",
              location: input.location ?? "",
              detail: input.detail ?? null,
              state: t.state,
              created_at: now(),
            })
            .returning({ id: ticketSubCategories.id });
          for (const a of actionIds) await addActionRow(tx, row!.id, g.g.id, a, 1, [], true);
          for (const m of input.modifiers ?? []) await addModifierRow(tx, row!.id, m);
          made.push(row!.id);
        }
        await recomputeTicket(tx, t.id);
        return made;
      });
      return loadItems(db, { itemIds: ids });
    },

    async duplicate(caller: EmployeeCaller, id: number, n: number) {
      if (!Number.isInteger(n) || n < 1) throw unprocessable("Quantity cannot be less than 1");
      const src = await item(caller, id);
      const acts = await db.select().from(ticketSubCategoryActions).where(eq(ticketSubCategoryActions.ticket_sub_category_id, id));
      const mods = await db.select().from(ticketSubCategoryModifiers).where(eq(ticketSubCategoryModifiers.ticket_sub_category_id, id));
      const ids = await db.transaction(async (tx) => {
        const made: number[] = [];
        for (let c = 0; c < n; c++) {
          const { id: _id, total_paid, sorted, sorted_items, created_at, process_date, ...copy } = src;
          const [row] = await tx
            .insert(ticketSubCategories)
            .values({ ...copy, created_at: now() })
            .returning({ id: ticketSubCategories.id });
          if (acts.length) await tx.insert(ticketSubCategoryActions).values(acts.map(({ id: _a, ...a }) => ({ ...a, ticket_sub_category_id: row!.id })));
          if (mods.length) await tx.insert(ticketSubCategoryModifiers).values(mods.map(({ id: _m, ...m }) => ({ ...m, ticket_sub_category_id: row!.id })));
          made.push(row!.id);
        }
        await recomputeTicket(tx, src.ticket_id);
        return made;
      });
      return loadItems(db, { itemIds: ids });
    },

    /**
     * Above the discount limit, or an override below the computed total, an employee or a
     * driver needs a manager's approval (issue 11); the audit row names the approver.
     */
    async update(caller: EmployeeCaller, id: number, input: ItemUpdate, approval: ApprovalInput) {
      const cur = await item(caller, id);
      const g = await garment(db, cur.garment_sub_category_id);
      const set: Partial<typeof ticketSubCategories.$inferInsert> = {};
      for (const k of ["description", "comments", "location", "detail", "discount"] as const)
        if (input[k] !== undefined) (set as Record<string, unknown>)[k] = input[k];
      if (input.pieces !== undefined) {
        if (g.g.show_choose_pieces && splitPieces(input.pieces).length === 0) throw unprocessable("At least one piece must be selected!");
        if (splitPieces(cur.pieces).length > 0 && splitPieces(input.pieces).length === 0) throw unprocessable("Must have at least 1 piece");
        set.pieces = splitPieces(input.pieces).join(",");
      }
      if (input.quantity !== undefined) {
        if (!g.g.allow_quantity) throw unprocessable("quantity: this garment does not take a quantity");
        set.quantity = input.quantity;
      }
      if (input.total_override !== undefined) set.total_override = input.total_override;
      if (!Object.keys(set).length) return one(id);
      const limit = await approvals.discountLimit();
      const needs = [
        set.total_override != null && set.total_override < cur.total ? `a total below the computed €${toEuros(cur.total).toFixed(2)}` : null,
        set.discount != null && parseDiscount(set.discount) > limit ? `an item discount above ${limit} %` : null,
      ].filter((n): n is string => n !== null);
      const approver = needs.length ? await approvals.approve(caller, approval, needs.join(" and ")) : null;
      await db.transaction(async (tx) => {
        await tx.update(ticketSubCategories).set(set).where(eq(ticketSubCategories.id, id));
        await recomputeTicket(tx, cur.ticket_id);
        if (set.total_override !== undefined || set.discount !== undefined) {
          await audit(tx, clock.now(), caller, set.total_override !== undefined ? "total_override" : "discount", "ticket_sub_category", id, {
            before: { total_override: cur.total_override, discount: cur.discount },
            after: { total_override: set.total_override, discount: set.discount },
            ...approvedBy(approver),
          });
        }
      });
      return one(id);
    },

    /**
     * An item with payments stays. Removing one from a confirmed ticket lowers what the
     * customer owes for work taken in, so it needs a manager (or their approval) like
     * deleting the ticket would.
     */
    async remove(caller: EmployeeCaller, id: number, approval: ApprovalInput) {
      const cur = await item(caller, id);
      // Owings are payments too, even when a later change brought total_paid back to 0.
      const [owings] = await db.select({ n: count() }).from(employeeOwings).where(eq(employeeOwings.ticket_sub_category_id, id));
      if (cur.total_paid > 0 || (owings?.n ?? 0) > 0 || (await hasPayments(db, { item: cur.id }))) throw conflict("Item has payments; it cannot be deleted");
      const t = await ledger.ticketRow(db, caller, cur.ticket_id);
      const approver = t.confirmed_at ? await approvals.approve(caller, approval, "removing an item from a confirmed ticket") : null;
      await db.transaction(async (tx) => {
        await tx.delete(ticketSubCategories).where(eq(ticketSubCategories.id, id));
        await recomputeTicket(tx, cur.ticket_id);
        await audit(tx, clock.now(), caller, "delete", "ticket_sub_category", id, { ticket_id: cur.ticket_id, total: cur.total, ...approvedBy(approver) });
      });
      return true;
    },

    /** Takes `cents` for the item (full: whatever is left); never more than the balance. */
    async pay(caller: EmployeeCaller, id: number, cents: number, full: boolean, pay: PayWith = CASH) {
      const cur = await item(caller, id);
      if (pay.tender === "account") {
        const t = await ledger.ticketRow(db, caller, cur.ticket_id);
        const take = full ? balanceDue(cur.total_override ?? cur.total, cur.total_paid) : cents;
        pay = { ...pay, account: await accountForCharge(db, approvals, caller, t.customer_id, take, pay.approval ?? { client: "local" }) };
      }
      await db.transaction(async (tx) => {
        const taken = await money.payItem(tx, caller, await ledger.bill(tx, cur.ticket_id, { itemId: id }), id, full ? null : cents, pay);
        if (taken > 0) await audit(tx, clock.now(), caller, "payment", "ticket_sub_category", id, { amount_cents: taken, full, tender: pay.tender });
      });
      return one(id);
    },

    /** Spec §4: tapping a piece toggles its sorted flag; the item is sorted when all are. */
    async toggleSorted(caller: EmployeeCaller, id: number, piece: string) {
      const cur = await item(caller, id);
      const all = pieceList(cur.pieces, cur.description);
      if (!all.includes(piece)) throw unprocessable("item: not one of this item's pieces");
      const sorted = new Set(splitPieces(cur.sorted_items));
      sorted.has(piece) ? sorted.delete(piece) : sorted.add(piece);
      const list = all.filter((p) => sorted.has(p));
      await db
        .update(ticketSubCategories)
        .set({ sorted_items: list.join(","), sorted: list.length === all.length })
        .where(eq(ticketSubCategories.id, id));
      return one(id);
    },

    async setProcessDate(caller: EmployeeCaller, id: number, at: string) {
      await item(caller, id);
      await db.update(ticketSubCategories).set({ process_date: at }).where(eq(ticketSubCategories.id, id));
      return one(id);
    },

    /**
     * Spec §4: a line's state can be set on its own; one signature for the whole change. A
     * paid state on an item with a balance takes the balance as paid to the caller.
     */
    async changeState(caller: EmployeeCaller, change: StateChange) {
      const ids = [...new Set(change.Ids)];
      await ledger.assertState(db, change.State);
      const found = await visibleItems(caller, ids);
      const hold = await signatures.hold(caller.agent.id, change.Signature);
      await db
        .transaction((tx) => ledger.setItemsState(tx, caller, found, change.State, change.Signature))
        .catch((e) => {
          hold?.release();
          throw e;
        });
      return { success: true as const, count: ids.length };
    },

    /**
     * Spec §2/§4: printing labels confirms the ticket, sets the printed items MARKED (no
     * signature) and gives them their process date, in the transaction that journals the
     * print jobs, so labels are never journaled for items left unmarked (nor the reverse).
     */
    async markPrinted(tx: Exec, caller: EmployeeCaller, ticketId: number, ids: number[], processDate: string) {
      await ledger.confirm(tx, caller, await ledger.ticketRow(tx, caller, ticketId));
      await ledger.setItemsState(tx, caller, await visibleItems(caller, ids, tx), "MARKED");
      await tx.update(ticketSubCategories).set({ process_date: processDate }).where(inArray(ticketSubCategories.id, ids));
    },

    async addAction(
      caller: EmployeeCaller,
      input: { ticket_sub_category_id: number; action_id: number; quantity?: number; images?: number[]; override_images?: boolean },
    ) {
      const cur = await item(caller, input.ticket_sub_category_id);
      await assertImagesVisible(db, caller, input.images ?? []);
      await assertActionsAllowed(db, caller, [input.action_id]);
      return reprice(cur, (tx) =>
        addActionRow(tx, cur.id, cur.garment_sub_category_id, input.action_id, input.quantity ?? 1, input.images ?? [], input.override_images ?? false),
      );
    },
    async removeAction(caller: EmployeeCaller, actionRowId: number) {
      const a = await db.query.ticketSubCategoryActions.findFirst({ where: eq(ticketSubCategoryActions.id, actionRowId) });
      if (!a) throw notFound("Item action");
      const cur = await item(caller, a.ticket_sub_category_id);
      return reprice(cur, (tx) => tx.delete(ticketSubCategoryActions).where(eq(ticketSubCategoryActions.id, actionRowId)));
    },
    async addModifier(caller: EmployeeCaller, input: { ticket_sub_category_id: number; modifier_id: number }) {
      const cur = await item(caller, input.ticket_sub_category_id);
      return reprice(cur, (tx) => addModifierRow(tx, cur.id, input.modifier_id));
    },
    async removeModifier(caller: EmployeeCaller, rowId: number) {
      const m = await db.query.ticketSubCategoryModifiers.findFirst({ where: eq(ticketSubCategoryModifiers.id, rowId) });
      if (!m) throw notFound("Item modifier");
      const cur = await item(caller, m.ticket_sub_category_id);
      return reprice(cur, (tx) => tx.delete(ticketSubCategoryModifiers).where(eq(ticketSubCategoryModifiers.id, rowId)));
    },

    /** Spec §2 Express: express items of confirmed tickets not yet delivered, soonest due first. */
    async express(caller: EmployeeCaller) {
      const scope = agentScope(caller);
      const rows = await db
        .select({
          id: ticketSubCategories.id,
          ticket_id: ticketSubCategories.ticket_id,
          description: ticketSubCategories.description,
          pickup_date: tickets.pickup_date,
          confirmed_at: tickets.confirmed_at,
          express: modifiers.name,
        })
        .from(ticketSubCategories)
        .innerJoin(tickets, eq(tickets.id, ticketSubCategories.ticket_id))
        .innerJoin(
          ticketSubCategoryModifiers,
          and(eq(ticketSubCategoryModifiers.ticket_sub_category_id, ticketSubCategories.id), eq(ticketSubCategoryModifiers.modifier_type, "EXPRESS")),
        )
        .innerJoin(modifiers, eq(modifiers.id, ticketSubCategoryModifiers.modifier_id))
        .where(
          and(
            // Literal, not a bound value: SQLite uses the partial tsc_express_idx only then.
            sql`${ticketSubCategories.has_express} = 1`,
            notInArray(ticketSubCategories.state, [...DONE_STATES]),
            isNotNull(tickets.confirmed_at),
            scope ? inArray(tickets.agent_id, scope) : undefined,
          ),
        );
      return rows
        .map((r) => ({
          id: r.id,
          ticket_id: r.ticket_id,
          description: r.description,
          pickup_date: r.pickup_date,
          express: r.express,
          due_date: expressDeliveryDate(r.confirmed_at, r.express),
        }))
        .sort((a, b) => (a.due_date ?? "9999").localeCompare(b.due_date ?? "9999") || a.id - b.id);
    },
  };
}
export type ItemService = ReturnType<typeof createItemService>;
