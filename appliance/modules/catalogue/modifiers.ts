import { asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { modifiers } from "../../../db/schema";
import { itemsWithModifiers } from "../tickets/reads";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { audit, changes } from "../audit/audit";
import { modifierUpChargeError } from "../../domain/pricing";
import type { ModifierInput } from "./model";

type Input = ModifierInput;
type Row = typeof modifiers.$inferSelect;

/** Up-charges in hundredths (cents, or hundredths of a percent); the routes convert. */
export function createModifierService({ db, clock }: { db: Db; clock: Clock }) {
  async function load(id: number) {
    const m = await db.query.modifiers.findFirst({ where: eq(modifiers.id, id) });
    if (!m) throw notFound("Modifier");
    return m;
  }
  /** parent_id 0 is a root; a sub-modifier's parent must be a root of the same type (one level). */
  async function checkParent(id: number, parentId: number | undefined, type: string) {
    if (!parentId) return;
    if (parentId === id) throw unprocessable("parent_id: a modifier cannot be its own parent");
    const p = await db.query.modifiers.findFirst({ where: eq(modifiers.id, parentId) });
    if (!p) throw unprocessable("parent_id: no such modifier");
    if (p.parent_id !== 0) throw unprocessable("parent_id: sub-modifiers go under a root modifier");
    if (p.type !== type) throw unprocessable("parent_id: the parent must be of the same type");
  }
  /** Also applies the pricing engine's cap on the up-charge (flat within a line, a percentage within 1000 %). */
  const values = (input: Partial<Input>, current?: { up_charge: number; is_percentage: boolean }) => {
    const capped = modifierUpChargeError(input.up_charge ?? current?.up_charge ?? 0, input.is_percentage ?? current?.is_percentage ?? false);
    if (capped) throw unprocessable(capped);
    return input;
  };

  return {
    /** Admins see every modifier; the counter the visible ones. Ordered by type, order. */
    async list(caller: EmployeeCaller) {
      const rows = await db
        .select()
        .from(modifiers)
        .where(caller.employee.role === "admin" ? undefined : eq(modifiers.visible, true))
        .orderBy(asc(modifiers.type), asc(modifiers.order), asc(modifiers.id));
      return rows;
    },
    get: load,
    async create(caller: EmployeeCaller, input: Input) {
      await checkParent(0, input.parent_id, input.type);
      const [n] = await db.select({ n: count() }).from(modifiers);
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(modifiers)
          .values({ order: n?.n ?? 0, ...values(input), name: input.name, type: input.type })
          .returning();
        await audit(tx, clock.now(), caller, "create", "modifier", row!.id, { name: row!.name });
        return row!;
      });
    },
    async update(caller: EmployeeCaller, id: number, input: Partial<Input>) {
      const current = await load(id);
      const type = input.type ?? current.type;
      await checkParent(id, input.parent_id ?? current.parent_id, type);
      if (input.type && input.type !== current.type) {
        const [kids] = await db.select({ n: count() }).from(modifiers).where(eq(modifiers.parent_id, id));
        if ((kids?.n ?? 0) > 0) throw unprocessable("type: a modifier with sub-modifiers keeps its type");
      }
      const v = values(input, current);
      if (Object.keys(v).length) {
        await db.transaction(async (tx) => {
          await tx.update(modifiers).set(v).where(eq(modifiers.id, id));
          await audit(tx, clock.now(), caller, "update", "modifier", id, changes(current, v));
        });
      }
      return load(id);
    },
    /** A modifier on any ticket item is kept (hide it instead); a root takes its sub-modifiers with it. */
    async remove(caller: EmployeeCaller, id: number) {
      const m = await load(id);
      const kids = await db.select({ id: modifiers.id }).from(modifiers).where(eq(modifiers.parent_id, id));
      const ids = [id, ...kids.map((k) => k.id)];
      const used = await itemsWithModifiers(db, ids);
      if (used > 0) throw conflict(`Modifier is on ${used} ticket item(s); hide it (visible off) instead of removing it`);
      await db.transaction(async (tx) => {
        await tx.delete(modifiers).where(inArray(modifiers.id, ids));
        await audit(tx, clock.now(), caller, "delete", "modifier", id, { name: m.name, with_sub_modifiers: ids.length - 1 });
      });
      return true;
    },
    async reOrder(caller: EmployeeCaller, ids: number[]) {
      if (new Set(ids).size !== ids.length) throw unprocessable("body: ids must not repeat");
      const found = ids.length ? await db.select({ id: modifiers.id }).from(modifiers).where(inArray(modifiers.id, ids)) : [];
      if (found.length !== ids.length) throw unprocessable("body: unknown id in the order");
      await db.transaction(async (tx) => {
        for (const [i, mid] of ids.entries()) await tx.update(modifiers).set({ order: i }).where(eq(modifiers.id, mid));
        await audit(tx, clock.now(), caller, "reorder", "modifier", null, { ids });
      });
      return true;
    },
  };
}
export type ModifierService = ReturnType<typeof createModifierService>;
