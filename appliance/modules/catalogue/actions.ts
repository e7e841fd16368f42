import { and, count, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { actionGarmentSubCategories, actions, garmentCategories } from "../../../db/schema";
import { removeActionConfigurations } from "../scheduling/configurations";
import { itemsWithAction } from "../tickets/reads";
import { actionPrice, actionReferenceError, actionTableError, type PricedAction } from "../../domain/pricing";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { audit, changes } from "../audit/audit";
import { allowedActions } from "./actionAccess";
import type { ActionInput } from "./model";

type Row = typeof actions.$inferSelect;

/** Takes and answers up-charges and prices in hundredths; the routes convert. */
export function createActionService({ db, clock }: { db: Db; clock: Clock }) {
  async function all(): Promise<Map<number, PricedAction>> {
    const rows = await db.select({ id: actions.id, is_percentage_of: actions.is_percentage_of, up_charge: actions.up_charge }).from(actions);
    return new Map(rows.map((r) => [r.id, r]));
  }
  /** An action with its computed price; up-charge and price in hundredths (cents, or hundredths of a percent). */
  const out = (a: Row, priced: Map<number, PricedAction>) => ({
    ...a,
    is_percentage: a.is_percentage_of != null,
    price: actionPrice(a.id, priced),
  });

  async function values(id: number, input: Partial<ActionInput>, current?: Row) {
    const v: Partial<typeof actions.$inferInsert> = {};
    for (const k of ["name", "image", "visible", "images_required", "discount"] as const)
      if (input[k] !== undefined) (v as Record<string, unknown>)[k] = input[k];
    if (input.up_charge !== undefined) v.up_charge = input.up_charge;
    if (input.is_percentage === false) v.is_percentage_of = null;
    else if (input.is_percentage_of !== undefined) v.is_percentage_of = input.is_percentage_of ?? null;
    const target = v.is_percentage_of !== undefined ? v.is_percentage_of : (current?.is_percentage_of ?? null);
    const table = await all();
    const err = actionReferenceError(id, target, table);
    if (err) throw unprocessable(err);
    // The pricing engine's caps, over the table as it would be (chains included).
    table.set(id, { id, is_percentage_of: target, up_charge: v.up_charge ?? current?.up_charge ?? 0 });
    const capped = actionTableError(table);
    if (capped) throw unprocessable(capped);
    return v;
  }

  async function load(id: number) {
    const a = await db.query.actions.findFirst({ where: eq(actions.id, id) });
    if (!a) throw notFound("Action");
    return a;
  }

  return {
    /** Admins see every action; the counter sees the visible ones; a shop limited by can_see_action only those. */
    async list(caller: EmployeeCaller) {
      const [priced, allowed] = await Promise.all([all(), allowedActions(db, caller)]);
      const rows = await db
        .select()
        .from(actions)
        .where(caller.employee.role === "admin" ? undefined : eq(actions.visible, true))
        .orderBy(actions.name);
      return rows.filter((a) => !allowed || allowed.has(a.id)).map((a) => out(a, priced));
    },
    /** An action the caller's shop may not see answers 404, as if it did not exist. */
    async get(caller: EmployeeCaller, id: number) {
      const allowed = await allowedActions(db, caller);
      if (allowed && !allowed.has(id)) throw notFound("Action");
      return out(await load(id), await all());
    },
    async create(caller: EmployeeCaller, input: ActionInput) {
      const v = await values(0, input);
      return db
        .transaction(async (tx) => {
          const [row] = await tx
            .insert(actions)
            .values({ name: input.name, ...v })
            .returning();
          await audit(tx, clock.now(), caller, "create", "action", row!.id, { name: row!.name });
          return row!;
        })
        .then(async (row) => out(row, await all()));
    },
    async update(caller: EmployeeCaller, id: number, input: Partial<ActionInput>) {
      const current = await load(id);
      const v = await values(id, input, current);
      if (Object.keys(v).length) {
        await db.transaction(async (tx) => {
          await tx.update(actions).set(v).where(eq(actions.id, id));
          await audit(tx, clock.now(), caller, "update", "action", id, changes(current, v));
        });
      }
      return out(await load(id), await all());
    },
    /**
     * An action on any ticket is kept so old tickets still read right: hide it (visible off)
     * instead. Otherwise its prices and workload rows go with it.
     */
    async remove(caller: EmployeeCaller, id: number) {
      const a = await load(id);
      const used = await itemsWithAction(db, id);
      if (used > 0) throw conflict(`Action is on ${used} ticket item(s); hide it (visible off) instead of removing it`);
      const [ref] = await db.select({ n: count() }).from(actions).where(eq(actions.is_percentage_of, id));
      if ((ref?.n ?? 0) > 0) throw conflict("Another action is priced as a percentage of this one; change that first");
      await db.transaction(async (tx) => {
        const prices = await tx
          .select({ id: actionGarmentSubCategories.id })
          .from(actionGarmentSubCategories)
          .where(eq(actionGarmentSubCategories.action_id, id));
        const ids = prices.map((p) => p.id);
        if (ids.length) {
          const [dep] = await tx
            .select({ n: count() })
            .from(actionGarmentSubCategories)
            .where(and(inArray(actionGarmentSubCategories.is_percentage_of, ids), ne(actionGarmentSubCategories.action_id, id)));
          if ((dep?.n ?? 0) > 0) throw conflict("Another action's price is a percentage of this action's price; change that first");
          await tx.delete(actionGarmentSubCategories).where(inArray(actionGarmentSubCategories.id, ids));
        }
        await removeActionConfigurations(tx, id);
        await tx.update(garmentCategories).set({ default_action_id: null }).where(eq(garmentCategories.default_action_id, id));
        await tx.delete(actions).where(eq(actions.id, id));
        await audit(tx, clock.now(), caller, "delete", "action", id, { name: a.name });
      });
      return true;
    },
  };
}
export type ActionService = ReturnType<typeof createActionService>;
