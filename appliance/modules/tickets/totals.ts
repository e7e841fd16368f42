import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import { capMessage, itemTotals, MAX_LINE_CENTS, MAX_TICKET_CENTS, ticketOverCap, ticketTotal } from "../../domain/pricing";
import { parseDiscount } from "../../domain/money";
import { unprocessable } from "../../platform/errors";
import type { Exec } from "./repo";
import {
  actionRowsOfItems,
  customerDiscount,
  garmentDiscounts,
  itemsOfTicket,
  modifierPricesOfItems,
  setItemTotals,
  setTicketTotal,
  ticketById,
} from "./hotReads";
import { capPaidRows } from "../money/service";

/**
 * Re-prices every item of a ticket and the ticket itself from what is stored, inside the
 * caller's transaction, so a ticket's total always equals the sum of its items plus charges.
 * Action prices are the snapshot taken when the action was added; modifier up-charges and
 * discounts are read as they are now. A write that would take an item or the ticket past
 * the pricing engine's caps is refused (422), which rolls the caller's transaction back.
 */
export async function recomputeTicket(q: Exec, ticketId: number): Promise<void> {
  // Every tap that changes a ticket runs this: its statements are built once (hotReads.ts).
  const t = await ticketById(q).get({ id: ticketId });
  if (!t) return;
  const customer = await customerDiscount(q).get({ id: t.customer_id });
  const items = await itemsOfTicket(q).all({ ticket: ticketId });
  const ids = JSON.stringify(items.map((i) => i.id));
  const acts = items.length ? await actionRowsOfItems(q).all({ ids }) : [];
  const mods = items.length ? await modifierPricesOfItems(q).all({ ids }) : [];
  const garmentIds = [...new Set(items.map((i) => i.garment_sub_category_id))];
  const garments = garmentIds.length ? await garmentDiscounts(q).all({ ids: JSON.stringify(garmentIds) }) : [];
  const g = new Map(garments.map((x) => [x.id, x]));

  const totals: number[] = [];
  let anyExpress = false;
  for (const item of items) {
    const garment = g.get(item.garment_sub_category_id);
    const itemMods = mods.filter((m) => m.item === item.id);
    const r = itemTotals({
      actions: acts.filter((a) => a.ticket_sub_category_id === item.id),
      quantity: garment?.allow_quantity ? item.quantity : 1,
      modifiers: itemMods,
      discounts: {
        item: parseDiscount(item.discount),
        garment: parseDiscount(garment?.discount),
        customer: customer?.discount ?? 0,
        ticket: parseDiscount(t.discount),
      },
    });
    if (r.over_cap) throw unprocessable(capMessage.item("total"));
    const hasExpress = itemMods.some((m) => m.type === "EXPRESS");
    anyExpress ||= hasExpress;
    // `total` keeps the computed price; an override replaces it in what is owed (spec §3).
    totals.push(item.total_override ?? r.total);
    if (r.total !== item.total || r.pre_discount_total !== item.pre_discount_total || hasExpress !== item.has_express) {
      await setItemTotals(q).run({ total: r.total, pre: r.pre_discount_total, express: hasExpress ? 1 : 0, id: item.id });
    }
  }
  if (ticketOverCap(totals, t.pickup_charge, t.delivery_charge)) throw unprocessable(capMessage.ticket("total"));
  const total = ticketTotal(totals, t.pickup_charge, t.delivery_charge);
  if (total !== t.total || anyExpress !== t.has_express_item) {
    await setTicketTotal(q).run({ total, express: anyExpress ? 1 : 0, id: ticketId });
  }
}

const REPAIRED_KEY = "money_caps_repaired";

/**
 * Before the caps, a chained percentage price could store an amount past 2^53 cents, which
 * the database driver refuses to read back as a number, so every read of that ticket failed.
 * Once per box, such stored amounts are clamped to the caps (the same the pricing engine
 * applies); a marker in box_settings keeps later starts from scanning the items again. What
 * was paid is never written directly (the database refuses it, migration 0014): a paid amount
 * past its cap is brought down by payment rows, whose trigger lowers total_paid.
 */
export async function repairOverflowedMoney(db: Db, now: Date): Promise<void> {
  if (await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, REPAIRED_KEY) })) return;
  await db.transaction(async (tx) => {
    const columns: [string, string, number][] = [
      ["ticket_sub_category_actions", "price", MAX_LINE_CENTS],
      ...["total", "pre_discount_total", "total_override"].map((c): [string, string, number] => ["ticket_sub_categories", c, MAX_LINE_CENTS]),
      ["tickets", "total", MAX_TICKET_CENTS],
    ];
    for (const [table, column, cap] of columns) await tx.run(sql.raw(`UPDATE ${table} SET ${column} = ${cap} WHERE ${column} > ${cap}`));
    await capPaidRows(tx, { line: MAX_LINE_CENTS, ticket: MAX_TICKET_CENTS }, now);
    await tx.insert(boxSettings).values({ key: REPAIRED_KEY, value: "1" });
  });
}
