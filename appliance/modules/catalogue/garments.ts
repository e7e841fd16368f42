import { asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { actionGarmentSubCategories, actions, garmentCategories, garmentSubCategories } from "../../../db/schema";
import { itemsWithGarment } from "../tickets/reads";
import { effectivePrice, type PriceRecord } from "../../domain/pricing";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { audit, changes } from "../audit/audit";
import type { CategoryInput, SubCategoryInput } from "./model";

type Category = typeof garmentCategories.$inferSelect;
type SubCategory = typeof garmentSubCategories.$inferSelect;
/** A garment's action price: its effective price in cents. */
type GarmentPrice = { id: number; action_id: number; action: string; price: number };

/** Garments come with their effective action prices in cents; the routes convert. */
export function createGarmentService({ db, clock }: { db: Db; clock: Clock }) {
  async function pricesFor(subIds: number[]) {
    if (!subIds.length) return new Map<number, GarmentPrice[]>();
    const rows = await db
      .select({ r: actionGarmentSubCategories, action: actions.name, visible: actions.visible })
      .from(actionGarmentSubCategories)
      .innerJoin(actions, eq(actions.id, actionGarmentSubCategories.action_id))
      .where(inArray(actionGarmentSubCategories.garment_sub_category_id, subIds));
    const records = new Map<number, PriceRecord>(rows.map(({ r }) => [r.id, r]));
    const by = new Map<number, GarmentPrice[]>();
    for (const { r, action } of rows) {
      const list = by.get(r.garment_sub_category_id) ?? [];
      list.push({ id: r.id, action_id: r.action_id, action, price: effectivePrice(r.id, records) });
      by.set(r.garment_sub_category_id, list);
    }
    return by;
  }

  const subOut = (s: SubCategory, prices?: Map<number, GarmentPrice[]>) => ({ ...s, ...(prices ? { prices: prices.get(s.id) ?? [] } : {}) });

  async function loadCategory(id: number) {
    const c = await db.query.garmentCategories.findFirst({ where: eq(garmentCategories.id, id) });
    if (!c) throw notFound("Garment category");
    return c;
  }
  async function loadSub(id: number) {
    const s = await db.query.garmentSubCategories.findFirst({ where: eq(garmentSubCategories.id, id) });
    if (!s) throw notFound("Garment sub category");
    return s;
  }
  async function checkAction(id: number | null | undefined) {
    if (id && !(await db.query.actions.findFirst({ where: eq(actions.id, id), columns: { id: true } })))
      throw unprocessable("default_action_id: no such action");
  }
  async function checkCategory(id: number | undefined) {
    if (id && !(await db.query.garmentCategories.findFirst({ where: eq(garmentCategories.id, id), columns: { id: true } }))) {
      throw unprocessable("garment_category_id: no such garment category");
    }
  }
  async function nextOrder(table: typeof garmentCategories | typeof garmentSubCategories) {
    const [r] = await db.select({ n: count() }).from(table);
    return r?.n ?? 0;
  }

  /** Saves an order: position i for ids[i]; ids must be exactly a set of existing rows. */
  async function reOrder(caller: EmployeeCaller, table: typeof garmentCategories | typeof garmentSubCategories, entity: string, ids: number[]) {
    if (new Set(ids).size !== ids.length) throw unprocessable("body: ids must not repeat");
    const found = ids.length ? await db.select({ id: table.id }).from(table).where(inArray(table.id, ids)) : [];
    if (found.length !== ids.length) throw unprocessable("body: unknown id in the order");
    await db.transaction(async (tx) => {
      for (const [i, id] of ids.entries()) await tx.update(table).set({ order: i }).where(eq(table.id, id));
      await audit(tx, clock.now(), caller, "reorder", entity, null, { ids });
    });
    return true;
  }

  return {
    /** Categories with their sub-categories (admins see hidden ones too), in their order. */
    async listCategories(caller: EmployeeCaller) {
      const admin = caller.employee.role === "admin";
      const cats = await db
        .select()
        .from(garmentCategories)
        .where(admin ? undefined : eq(garmentCategories.visible, true))
        .orderBy(asc(garmentCategories.order), asc(garmentCategories.id));
      const subs = await db
        .select()
        .from(garmentSubCategories)
        .where(admin ? undefined : eq(garmentSubCategories.visible, true))
        .orderBy(asc(garmentSubCategories.order), asc(garmentSubCategories.id));
      const by = new Map<number, SubCategory[]>();
      for (const s of subs) by.set(s.garment_category_id, [...(by.get(s.garment_category_id) ?? []), s]);
      return cats.map((c) => ({ ...c, sub_categories: by.get(c.id) ?? [] }));
    },
    async getCategory(id: number) {
      const c = await loadCategory(id);
      const subs = await db
        .select()
        .from(garmentSubCategories)
        .where(eq(garmentSubCategories.garment_category_id, id))
        .orderBy(asc(garmentSubCategories.order), asc(garmentSubCategories.id));
      return { ...c, sub_categories: subs };
    },
    async createCategory(caller: EmployeeCaller, input: CategoryInput) {
      await checkAction(input.default_action_id);
      const order = input.order ?? (await nextOrder(garmentCategories));
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(garmentCategories)
          .values({ ...input, order })
          .returning();
        await audit(tx, clock.now(), caller, "create", "garment_category", row!.id, { name: row!.name });
        return { ...row!, sub_categories: [] };
      });
    },
    async updateCategory(caller: EmployeeCaller, id: number, input: Partial<CategoryInput>) {
      const current = await loadCategory(id);
      await checkAction(input.default_action_id);
      if (Object.keys(input).length) {
        await db.transaction(async (tx) => {
          await tx.update(garmentCategories).set(input).where(eq(garmentCategories.id, id));
          await audit(tx, clock.now(), caller, "update", "garment_category", id, changes(current, input));
        });
      }
      return this.getCategory(id);
    },
    async removeCategory(caller: EmployeeCaller, id: number) {
      const c: Category = await loadCategory(id);
      const [subs] = await db.select({ n: count() }).from(garmentSubCategories).where(eq(garmentSubCategories.garment_category_id, id));
      if ((subs?.n ?? 0) > 0) throw conflict("Garment category still has garments; remove or hide them first");
      await db.transaction(async (tx) => {
        await tx.delete(garmentCategories).where(eq(garmentCategories.id, id));
        await audit(tx, clock.now(), caller, "delete", "garment_category", id, { name: c.name });
      });
      return true;
    },
    reOrderCategories: (caller: EmployeeCaller, ids: number[]) => reOrder(caller, garmentCategories, "garment_category", ids),

    async listSubCategories(caller: EmployeeCaller, categoryId?: number) {
      const admin = caller.employee.role === "admin";
      const rows = await db
        .select()
        .from(garmentSubCategories)
        .where(admin ? (categoryId ? eq(garmentSubCategories.garment_category_id, categoryId) : undefined) : eq(garmentSubCategories.visible, true))
        .orderBy(asc(garmentSubCategories.order), asc(garmentSubCategories.id));
      const list = categoryId ? rows.filter((r) => r.garment_category_id === categoryId) : rows;
      const prices = await pricesFor(list.map((r) => r.id));
      return list.map((s) => subOut(s, prices));
    },
    async getSubCategory(id: number) {
      const s = await loadSub(id);
      return subOut(s, await pricesFor([id]));
    },
    async createSubCategory(caller: EmployeeCaller, input: SubCategoryInput) {
      await checkCategory(input.garment_category_id);
      const order = input.order ?? (await nextOrder(garmentSubCategories));
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(garmentSubCategories)
          .values({ ...input, order })
          .returning();
        await audit(tx, clock.now(), caller, "create", "garment_sub_category", row!.id, { name: row!.name });
        return subOut(row!, new Map());
      });
    },
    async updateSubCategory(caller: EmployeeCaller, id: number, input: Partial<SubCategoryInput>) {
      const current = await loadSub(id);
      await checkCategory(input.garment_category_id);
      if (Object.keys(input).length) {
        await db.transaction(async (tx) => {
          await tx.update(garmentSubCategories).set(input).where(eq(garmentSubCategories.id, id));
          await audit(tx, clock.now(), caller, "update", "garment_sub_category", id, changes(current, input));
        });
      }
      return this.getSubCategory(id);
    },
    /** A garment on any ticket is kept (hide it instead); otherwise its prices go with it. */
    async removeSubCategory(caller: EmployeeCaller, id: number) {
      const s = await loadSub(id);
      const used = await itemsWithGarment(db, id);
      if (used > 0) throw conflict(`Garment is on ${used} ticket item(s); hide it (visible off) instead of removing it`);
      await db.transaction(async (tx) => {
        await tx.update(actionGarmentSubCategories).set({ is_percentage_of: null }).where(eq(actionGarmentSubCategories.garment_sub_category_id, id));
        await tx.delete(actionGarmentSubCategories).where(eq(actionGarmentSubCategories.garment_sub_category_id, id));
        await tx.delete(garmentSubCategories).where(eq(garmentSubCategories.id, id));
        await audit(tx, clock.now(), caller, "delete", "garment_sub_category", id, { name: s.name });
      });
      return true;
    },
    reOrderSubCategories: (caller: EmployeeCaller, ids: number[]) => reOrder(caller, garmentSubCategories, "garment_sub_category", ids),
  };
}
export type GarmentService = ReturnType<typeof createGarmentService>;
