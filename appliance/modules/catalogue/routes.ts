import { z } from "zod";
import { pdfResponse } from "../../../drivers/pdf/document";
import { HQ_STAFF, ROLES, route } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";
import { fromHundredths, toHundredths } from "../../domain/money";
import { IdParams } from "../../domain/schemas";
import type { ActionService } from "./actions";
import type { GarmentService } from "./garments";
import {
  Action,
  ActionBody,
  BulkPriceBody,
  Category,
  CategoryBody,
  Modifier,
  ModifierBody,
  Price,
  PriceBody,
  PriceListQuery,
  PriceQuery,
  ReOrderBody,
  SubCategory,
  SubCategoryBody,
  SubCategoryQuery,
} from "./model";
import type { ModifierService } from "./modifiers";
import type { PriceService } from "./prices";

/**
 * Everyone at the counter reads the catalogue. It is shared by every shop, so only
 * head-quarters staff change it (spec §6 says admins; a shop's admin reads it).
 */
const staff = { roles: ROLES };
const done = z.literal(true);

// The route edge: the API's euros and percents ↔ the services' hundredths (cents, or
// hundredths of a percent). An up-charge or price is one or the other; both scale by 100.
type WithUpCharge = { up_charge?: number };
const upChargeIn = <T extends WithUpCharge>(b: T): T => (b.up_charge === undefined ? b : { ...b, up_charge: toHundredths(b.up_charge) });
const modifierOut = <T extends { up_charge: number }>(m: T) => ({ ...m, up_charge: fromHundredths(m.up_charge) });
const actionOut = <T extends { up_charge: number; price: number }>(a: T) => ({ ...a, up_charge: fromHundredths(a.up_charge), price: fromHundredths(a.price) });
const priceIn = <T extends { price?: number | null }>(b: T): T => (b.price == null ? b : { ...b, price: toHundredths(b.price) });
const priceOut = <T extends { price: number; effective_price: number }>(p: T) => ({
  ...p,
  price: fromHundredths(p.price),
  effective_price: fromHundredths(p.effective_price),
});
const garmentOut = <T extends { prices?: { price: number }[] }>(g: T) =>
  g.prices ? { ...g, prices: g.prices.map((p) => ({ ...p, price: fromHundredths(p.price) })) } : g;

export function catalogueRoutes(s: {
  actions: ActionService;
  garments: GarmentService;
  modifiers: ModifierService;
  prices: PriceService;
  priceList: (stamp: { agent: string; employee: string }) => Promise<{ pdf: Buffer; filename: string }>;
}) {
  const { actions, garments, modifiers, prices } = s;
  return [
    // ---- actions
    route({
      method: "GET",
      path: "/actions/",
      tag: "catalogue",
      summary: "Actions with their computed price",
      access: staff,
      response: z.array(Action),
      handler: async ({ caller }) => (await actions.list(caller)).map(actionOut),
    }),
    route({
      method: "GET",
      path: "/actions/:id",
      tag: "catalogue",
      summary: "One action",
      access: staff,
      params: IdParams,
      response: Action,
      handler: async ({ caller, params }) => actionOut(await actions.get(caller, params.id)),
    }),
    route({
      method: "POST",
      path: "/actions/",
      tag: "catalogue",
      summary: "Creates an action",
      access: HQ_STAFF,
      hqOwned: true,
      body: ActionBody,
      idempotent: true,
      response: Action,
      handler: async ({ caller, body }) => actionOut(await actions.create(caller, upChargeIn(body))),
    }),
    route({
      method: "PUT",
      path: "/actions/:id",
      tag: "catalogue",
      summary: "Updates an action; is_percentage off clears is_percentage_of",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      body: ActionBody.partial(),
      response: Action,
      handler: async ({ caller, params, body }) => actionOut(await actions.update(caller, params.id, upChargeIn(body))),
    }),
    route({
      method: "DELETE",
      path: "/actions/:id",
      tag: "catalogue",
      summary: "Removes an action no ticket uses",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      response: done,
      handler: ({ caller, params }) => actions.remove(caller, params.id),
    }),

    // ---- garment categories
    route({
      method: "GET",
      path: "/garmentCategories/",
      tag: "catalogue",
      summary: "Categories with their garments, in order",
      access: staff,
      response: z.array(Category),
      handler: ({ caller }) => garments.listCategories(caller),
    }),
    route({
      method: "PUT",
      path: "/garmentCategories/reOrder",
      tag: "catalogue",
      summary: "Saves the order of categories (array of ids)",
      access: HQ_STAFF,
      hqOwned: true,
      body: ReOrderBody,
      response: done,
      handler: ({ caller, body }) => garments.reOrderCategories(caller, body),
    }),
    route({
      method: "GET",
      path: "/garmentCategories/:id",
      tag: "catalogue",
      summary: "One category with its garments",
      access: staff,
      params: IdParams,
      response: Category,
      handler: ({ params }) => garments.getCategory(params.id),
    }),
    route({
      method: "POST",
      path: "/garmentCategories/",
      tag: "catalogue",
      summary: "Creates a category",
      access: HQ_STAFF,
      hqOwned: true,
      body: CategoryBody,
      idempotent: true,
      response: Category,
      handler: ({ caller, body }) => garments.createCategory(caller, body),
    }),
    route({
      method: "PUT",
      path: "/garmentCategories/:id",
      tag: "catalogue",
      summary: "Updates a category",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      body: CategoryBody.partial(),
      response: Category,
      handler: ({ caller, params, body }) => garments.updateCategory(caller, params.id, body),
    }),
    route({
      method: "DELETE",
      path: "/garmentCategories/:id",
      tag: "catalogue",
      summary: "Removes an empty category",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      response: done,
      handler: ({ caller, params }) => garments.removeCategory(caller, params.id),
    }),

    // ---- garments (sub-categories)
    route({
      method: "GET",
      path: "/garmentSubCategories/",
      tag: "catalogue",
      summary: "Garments with their action prices (optional garment_category_id)",
      access: staff,
      query: SubCategoryQuery,
      response: z.array(SubCategory),
      handler: async ({ caller, query }) => (await garments.listSubCategories(caller, query.garment_category_id)).map(garmentOut),
    }),
    route({
      method: "GET",
      path: "/garmentSubCategories/priceList",
      tag: "catalogue",
      summary: "The printable price list (PDF); Employee and Agent tokens may come in the query; preview=true shows it inline",
      access: staff,
      queryToken: "Employee",
      query: PriceListQuery,
      raw: true,
      handler: async ({ caller, query }) => {
        const { pdf, filename } = await s.priceList({ agent: caller.agent.name, employee: caller.employee.full_name });
        return pdfResponse(pdf, filename, query.preview === "true", SECURITY_HEADERS);
      },
    }),
    route({
      method: "PUT",
      path: "/garmentSubCategories/reOrder",
      tag: "catalogue",
      summary: "Saves the order of garments (array of ids)",
      access: HQ_STAFF,
      hqOwned: true,
      body: ReOrderBody,
      response: done,
      handler: ({ caller, body }) => garments.reOrderSubCategories(caller, body),
    }),
    route({
      method: "GET",
      path: "/garmentSubCategories/:id",
      tag: "catalogue",
      summary: "One garment with its action prices",
      access: staff,
      params: IdParams,
      response: SubCategory,
      handler: async ({ params }) => garmentOut(await garments.getSubCategory(params.id)),
    }),
    route({
      method: "POST",
      path: "/garmentSubCategories/",
      tag: "catalogue",
      summary: "Creates a garment",
      access: HQ_STAFF,
      hqOwned: true,
      body: SubCategoryBody,
      idempotent: true,
      response: SubCategory,
      handler: async ({ caller, body }) => garmentOut(await garments.createSubCategory(caller, body)),
    }),
    route({
      method: "PUT",
      path: "/garmentSubCategories/:id",
      tag: "catalogue",
      summary: "Updates a garment",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      body: SubCategoryBody.partial(),
      response: SubCategory,
      handler: async ({ caller, params, body }) => garmentOut(await garments.updateSubCategory(caller, params.id, body)),
    }),
    route({
      method: "DELETE",
      path: "/garmentSubCategories/:id",
      tag: "catalogue",
      summary: "Removes a garment no ticket uses",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      response: done,
      handler: ({ caller, params }) => garments.removeSubCategory(caller, params.id),
    }),

    // ---- modifiers
    route({
      method: "GET",
      path: "/modifiers/",
      tag: "catalogue",
      summary: "Modifiers by type and order",
      access: staff,
      response: z.array(Modifier),
      handler: async ({ caller }) => (await modifiers.list(caller)).map(modifierOut),
    }),
    route({
      method: "PUT",
      path: "/modifiers/reOrder",
      tag: "catalogue",
      summary: "Saves the order of modifiers (array of ids)",
      access: HQ_STAFF,
      hqOwned: true,
      body: ReOrderBody,
      response: done,
      handler: ({ caller, body }) => modifiers.reOrder(caller, body),
    }),
    route({
      method: "GET",
      path: "/modifiers/:id",
      tag: "catalogue",
      summary: "One modifier",
      access: staff,
      params: IdParams,
      response: Modifier,
      handler: async ({ params }) => modifierOut(await modifiers.get(params.id)),
    }),
    route({
      method: "POST",
      path: "/modifiers/",
      tag: "catalogue",
      summary: "Creates a modifier (parent_id 0 = root)",
      access: HQ_STAFF,
      hqOwned: true,
      body: ModifierBody,
      idempotent: true,
      response: Modifier,
      handler: async ({ caller, body }) => modifierOut(await modifiers.create(caller, upChargeIn(body))),
    }),
    route({
      method: "PUT",
      path: "/modifiers/:id",
      tag: "catalogue",
      summary: "Updates a modifier",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      body: ModifierBody.partial(),
      response: Modifier,
      handler: async ({ caller, params, body }) => modifierOut(await modifiers.update(caller, params.id, upChargeIn(body))),
    }),
    route({
      method: "DELETE",
      path: "/modifiers/:id",
      tag: "catalogue",
      summary: "Removes a modifier (and its sub-modifiers) no ticket uses",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      response: done,
      handler: ({ caller, params }) => modifiers.remove(caller, params.id),
    }),

    // ---- prices per garment
    route({
      method: "GET",
      path: "/actionGarmentSubCategories/",
      tag: "catalogue",
      summary: "Action prices per garment (optional filters garment_sub_category_id, action_id)",
      access: staff,
      query: PriceQuery,
      response: z.array(Price),
      handler: async ({ query }) => (await prices.list(query)).map(priceOut),
    }),
    route({
      method: "PUT",
      path: "/actionGarmentSubCategories/bulk",
      tag: "catalogue",
      summary: "Saves the quick price grid in one go (flat prices; null clears)",
      access: HQ_STAFF,
      hqOwned: true,
      body: BulkPriceBody,
      response: z.object({ changed: z.number() }),
      handler: ({ caller, body }) => prices.saveGrid(caller, body.map(priceIn)),
    }),
    route({
      method: "GET",
      path: "/actionGarmentSubCategories/:id",
      tag: "catalogue",
      summary: "One action price",
      access: staff,
      params: IdParams,
      response: Price,
      handler: async ({ params }) => priceOut(await prices.get(params.id)),
    }),
    route({
      method: "POST",
      path: "/actionGarmentSubCategories/",
      tag: "catalogue",
      summary: "Creates an action price for a garment",
      access: HQ_STAFF,
      hqOwned: true,
      body: PriceBody,
      idempotent: true,
      response: Price,
      handler: async ({ caller, body }) => priceOut(await prices.create(caller, priceIn(body))),
    }),
    route({
      method: "PUT",
      path: "/actionGarmentSubCategories/:id",
      tag: "catalogue",
      summary: "Updates an action price (cycles and other garments refused)",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      body: PriceBody.partial(),
      response: Price,
      handler: async ({ caller, params, body }) => priceOut(await prices.update(caller, params.id, priceIn(body))),
    }),
    route({
      method: "DELETE",
      path: "/actionGarmentSubCategories/:id",
      tag: "catalogue",
      summary: "Removes an action price",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      response: done,
      handler: ({ caller, params }) => prices.remove(caller, params.id),
    }),
  ];
}
