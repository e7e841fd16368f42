/**
 * The statements of the counter's taps (open a ticket, add an item, confirm, pay), built once
 * (db/prepared.ts; issue 33, second pass). Building a drizzle query, a relational `findFirst`
 * above all, took more CPU than running it; each runs on the caller's session (the box's db or
 * the use case's transaction). Lists of ids go in as one JSON parameter (`inJsonList`).
 */
import { and, eq, sql } from "drizzle-orm";
import { inJsonList, prepared } from "../../../db/prepared";
import {
  actionGarmentSubCategories,
  actions,
  customers,
  garmentSubCategories,
  modifiers,
  ticketSubCategories,
  ticketSubCategoryActions,
  ticketSubCategoryModifiers,
  tickets,
} from "../../../db/schema";
import type { Exec } from "./repo";

const p = sql.placeholder;

/** A ticket row as stored (what `query.tickets.findFirst` answered). */
export const ticketById = prepared((q: Exec) =>
  q
    .select()
    .from(tickets)
    .where(eq(tickets.id, p("id")))
    .limit(1)
    .prepare(),
);

export const customerDiscount = prepared((q: Exec) =>
  q
    .select({ discount: customers.discount })
    .from(customers)
    .where(eq(customers.id, p("id")))
    .limit(1)
    .prepare(),
);

export const itemsOfTicket = prepared((q: Exec) =>
  q
    .select()
    .from(ticketSubCategories)
    .where(eq(ticketSubCategories.ticket_id, p("ticket")))
    .prepare(),
);

export const actionRowsOfItems = prepared((q: Exec) =>
  q.select().from(ticketSubCategoryActions).where(inJsonList(ticketSubCategoryActions.ticket_sub_category_id, "ids")).prepare(),
);

/** What re-pricing needs of each item's modifiers. */
export const modifierPricesOfItems = prepared((q: Exec) =>
  q
    .select({
      item: ticketSubCategoryModifiers.ticket_sub_category_id,
      type: modifiers.type,
      up_charge: modifiers.up_charge,
      is_percentage: modifiers.is_percentage,
    })
    .from(ticketSubCategoryModifiers)
    .innerJoin(modifiers, eq(modifiers.id, ticketSubCategoryModifiers.modifier_id))
    .where(inJsonList(ticketSubCategoryModifiers.ticket_sub_category_id, "ids"))
    .prepare(),
);

export const garmentDiscounts = prepared((q: Exec) =>
  q
    .select({ id: garmentSubCategories.id, discount: garmentSubCategories.discount, allow_quantity: garmentSubCategories.allow_quantity })
    .from(garmentSubCategories)
    .where(inJsonList(garmentSubCategories.id, "ids"))
    .prepare(),
);

// drizzle's update types take no placeholder in `set`: each is an SQL fragment, so the values go
// in as the driver stores them (booleans as 0/1).
const v = (name: string) => sql`${p(name)}`;
export const setItemTotals = prepared((q: Exec) =>
  q
    .update(ticketSubCategories)
    .set({ total: v("total"), pre_discount_total: v("pre"), has_express: v("express") })
    .where(eq(ticketSubCategories.id, p("id")))
    .prepare(),
);

export const setTicketTotal = prepared((q: Exec) =>
  q
    .update(tickets)
    .set({ total: v("total"), has_express_item: v("express") })
    .where(eq(tickets.id, p("id")))
    .prepare(),
);

/** A ticket's items' amounts, oldest first (what money's pay steps are handed). */
const billColumns = {
  id: ticketSubCategories.id,
  total: ticketSubCategories.total,
  total_override: ticketSubCategories.total_override,
  total_paid: ticketSubCategories.total_paid,
};
export const billOfTicket = prepared((q: Exec) =>
  q
    .select(billColumns)
    .from(ticketSubCategories)
    .where(eq(ticketSubCategories.ticket_id, p("ticket")))
    .orderBy(ticketSubCategories.id)
    .prepare(),
);
export const billOfItem = prepared((q: Exec) =>
  q
    .select(billColumns)
    .from(ticketSubCategories)
    .where(eq(ticketSubCategories.id, p("item")))
    .orderBy(ticketSubCategories.id)
    .prepare(),
);

export const actionById = prepared((q: Exec) =>
  q
    .select()
    .from(actions)
    .where(eq(actions.id, p("id")))
    .limit(1)
    .prepare(),
);
export const modifierById = prepared((q: Exec) =>
  q
    .select()
    .from(modifiers)
    .where(eq(modifiers.id, p("id")))
    .limit(1)
    .prepare(),
);
export const itemModifier = prepared((q: Exec) =>
  q
    .select()
    .from(ticketSubCategoryModifiers)
    .where(and(eq(ticketSubCategoryModifiers.ticket_sub_category_id, p("item")), eq(ticketSubCategoryModifiers.modifier_id, p("modifier"))))
    .limit(1)
    .prepare(),
);

/** The ActionGarmentSubCategory prices of a garment (unitPrice). */
export const pricesOfGarment = prepared((q: Exec) =>
  q
    .select()
    .from(actionGarmentSubCategories)
    .where(eq(actionGarmentSubCategories.garment_sub_category_id, p("garment")))
    .prepare(),
);
