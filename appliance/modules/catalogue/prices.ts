import { and, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { actionGarmentSubCategories, actions, garmentSubCategories } from "../../../db/schema";
import { effectivePrice, type PriceRecord, priceReferenceError, priceTableError } from "../../domain/pricing";
import { conflict, notFound, unprocessable } from "../../platform/errors";
import type { EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { audit } from "../audit/audit";
import type { BulkPriceInput, PriceInput } from "./model";

type Input = PriceInput;
type Row = typeof actionGarmentSubCategories.$inferSelect;

/** The price of an action for a garment (spec: ActionGarmentSubCategory), in hundredths (cents, or hundredths of a percent). */
export function createPriceService({ db, clock }: { db: Db; clock: Clock }) {
  async function garmentRecords(garmentId: number): Promise<Map<number, PriceRecord>> {
    const rows = await db.select().from(actionGarmentSubCategories).where(eq(actionGarmentSubCategories.garment_sub_category_id, garmentId));
    return new Map(rows.map((r) => [r.id, r]));
  }
  const out = (r: Row, records: Map<number, PriceRecord>) => ({ ...r, effective_price: effectivePrice(r.id, records) });
  async function load(id: number) {
    const r = await db.query.actionGarmentSubCategories.findFirst({ where: eq(actionGarmentSubCategories.id, id) });
    if (!r) throw notFound("ActionGarmentSubCategory");
    return r;
  }
  async function check(id: number, input: Input) {
    if (!(await db.query.garmentSubCategories.findFirst({ where: eq(garmentSubCategories.id, input.garment_sub_category_id), columns: { id: true } }))) {
      throw unprocessable("garment_sub_category_id: no such garment");
    }
    if (!(await db.query.actions.findFirst({ where: eq(actions.id, input.action_id), columns: { id: true } })))
      throw unprocessable("action_id: no such action");
    const clash = await db.query.actionGarmentSubCategories.findFirst({
      where: and(
        eq(actionGarmentSubCategories.garment_sub_category_id, input.garment_sub_category_id),
        eq(actionGarmentSubCategories.action_id, input.action_id),
      ),
      columns: { id: true },
    });
    if (clash && clash.id !== id) throw conflict("This garment already has a price for this action; edit that one");
    const records = await garmentRecords(input.garment_sub_category_id);
    // A target on another garment is loaded too, so the error says so rather than "no such record".
    if (input.is_percentage_of && !records.has(input.is_percentage_of)) {
      const target = await db.query.actionGarmentSubCategories.findFirst({ where: eq(actionGarmentSubCategories.id, input.is_percentage_of) });
      if (target) records.set(target.id, target);
    }
    const err = priceReferenceError(id, input.is_percentage_of ?? null, input.garment_sub_category_id, records);
    if (err) throw unprocessable(err);
    // The pricing engine's caps, over the garment's prices as they would be (chains included).
    records.set(id, {
      id,
      garment_sub_category_id: input.garment_sub_category_id,
      action_id: input.action_id,
      price: input.price,
      is_percentage_of: input.is_percentage_of ?? null,
    });
    const capped = priceTableError(records);
    if (capped) throw unprocessable(capped);
  }
  const values = (input: Input) => ({ ...input, is_percentage_of: input.is_percentage_of ?? null, discount: input.discount ?? null });

  return {
    async list(filter: { garment_sub_category_id?: number; action_id?: number }) {
      const rows = await db
        .select()
        .from(actionGarmentSubCategories)
        .where(
          and(
            filter.garment_sub_category_id ? eq(actionGarmentSubCategories.garment_sub_category_id, filter.garment_sub_category_id) : undefined,
            filter.action_id ? eq(actionGarmentSubCategories.action_id, filter.action_id) : undefined,
          ),
        );
      // Percentages resolve within a garment, so load every record of the garments listed.
      const garments = [...new Set(rows.map((r) => r.garment_sub_category_id))];
      const related = garments.length
        ? await db.select().from(actionGarmentSubCategories).where(inArray(actionGarmentSubCategories.garment_sub_category_id, garments))
        : [];
      const all = new Map<number, PriceRecord>(related.map((r) => [r.id, r]));
      return rows.map((r) => out(r, all));
    },
    async get(id: number) {
      const r = await load(id);
      return out(r, await garmentRecords(r.garment_sub_category_id));
    },
    async create(caller: EmployeeCaller, input: Input) {
      await check(0, input);
      const row = await db.transaction(async (tx) => {
        const [row] = await tx.insert(actionGarmentSubCategories).values(values(input)).returning();
        await audit(tx, clock.now(), caller, "create", "action_price", row!.id, { price: row!.price });
        return row!;
      });
      return out(row, await garmentRecords(row.garment_sub_category_id));
    },
    async update(caller: EmployeeCaller, id: number, input: Partial<Input>) {
      const current = await load(id);
      const merged: Input = {
        garment_sub_category_id: input.garment_sub_category_id ?? current.garment_sub_category_id,
        action_id: input.action_id ?? current.action_id,
        price: input.price ?? current.price,
        discount: input.discount !== undefined ? input.discount : current.discount,
        is_percentage_of: input.is_percentage_of !== undefined ? input.is_percentage_of : current.is_percentage_of,
      };
      if (merged.garment_sub_category_id !== current.garment_sub_category_id) {
        const [deps] = await db.select({ n: count() }).from(actionGarmentSubCategories).where(eq(actionGarmentSubCategories.is_percentage_of, id));
        if ((deps?.n ?? 0) > 0) throw conflict("Other prices are a percentage of this one; it cannot move to another garment");
      }
      await check(id, merged);
      await db.transaction(async (tx) => {
        await tx.update(actionGarmentSubCategories).set(values(merged)).where(eq(actionGarmentSubCategories.id, id));
        await audit(tx, clock.now(), caller, "update", "action_price", id, { price_before: current.price, price: merged.price });
      });
      return this.get(id);
    },
    /**
     * All or nothing: every cell is checked first, then written in one transaction. A cell
     * that is a percentage of another price is changed to the given flat price.
     */
    async saveGrid(caller: EmployeeCaller, cells: BulkPriceInput) {
      const garmentIds = [...new Set(cells.map((c) => c.garment_sub_category_id))];
      const actionIds = [...new Set(cells.map((c) => c.action_id))];
      const foundG = await db.select({ id: garmentSubCategories.id }).from(garmentSubCategories).where(inArray(garmentSubCategories.id, garmentIds));
      const foundA = await db.select({ id: actions.id }).from(actions).where(inArray(actions.id, actionIds));
      if (foundG.length !== garmentIds.length) throw unprocessable("garment_sub_category_id: unknown garment in the grid");
      if (foundA.length !== actionIds.length) throw unprocessable("action_id: unknown action in the grid");
      const existing = await db.select().from(actionGarmentSubCategories).where(inArray(actionGarmentSubCategories.garment_sub_category_id, garmentIds));
      const key = (g: number, a: number) => `${g}:${a}`;
      const byKey = new Map(existing.map((r) => [key(r.garment_sub_category_id, r.action_id), r]));
      const referenced = new Set(existing.map((r) => r.is_percentage_of).filter((x): x is number => x != null));
      for (const c of cells) {
        const cur = byKey.get(key(c.garment_sub_category_id, c.action_id));
        if (c.price === null && cur && referenced.has(cur.id))
          throw conflict("A cleared price has other prices that are a percentage of it; change those first");
        // A new flat price also moves the prices that are a percentage of it: within the caps?
        if (c.price !== null && cur) {
          const records = new Map<number, PriceRecord>(existing.filter((r) => r.garment_sub_category_id === c.garment_sub_category_id).map((r) => [r.id, r]));
          records.set(cur.id, { ...cur, price: c.price, is_percentage_of: null });
          const capped = priceTableError(records);
          if (capped) throw unprocessable(capped);
        }
      }
      let changed = 0;
      await db.transaction(async (tx) => {
        for (const c of cells) {
          const cur = byKey.get(key(c.garment_sub_category_id, c.action_id));
          if (c.price === null) {
            if (cur) await tx.delete(actionGarmentSubCategories).where(eq(actionGarmentSubCategories.id, cur.id));
          } else if (cur) {
            if (cur.price === c.price && cur.is_percentage_of == null) continue;
            await tx.update(actionGarmentSubCategories).set({ price: c.price, is_percentage_of: null }).where(eq(actionGarmentSubCategories.id, cur.id));
          } else {
            await tx.insert(actionGarmentSubCategories).values({ garment_sub_category_id: c.garment_sub_category_id, action_id: c.action_id, price: c.price });
          }
          changed++;
        }
        await audit(tx, clock.now(), caller, "save_grid", "action_price", null, { cells: cells.length, changed });
      });
      return { changed };
    },
    async remove(caller: EmployeeCaller, id: number) {
      const r = await load(id);
      const [deps] = await db.select({ n: count() }).from(actionGarmentSubCategories).where(eq(actionGarmentSubCategories.is_percentage_of, id));
      if ((deps?.n ?? 0) > 0) throw conflict("Other prices of this garment are a percentage of this one; change them first");
      await db.transaction(async (tx) => {
        await tx.delete(actionGarmentSubCategories).where(eq(actionGarmentSubCategories.id, id));
        await audit(tx, clock.now(), caller, "delete", "action_price", id, { garment_sub_category_id: r.garment_sub_category_id, action_id: r.action_id });
      });
      return true;
    },
  };
}
export type PriceService = ReturnType<typeof createPriceService>;
