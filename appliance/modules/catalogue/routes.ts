import { z } from "zod";
import { pdfResponse } from "../../../drivers/pdf/document";
import { HQ_STAFF, ROLES, route } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";
import { IdParams } from "../../domain/schemas";
import { ActionBody, type ActionService } from "./actions";
import { CategoryBody, type GarmentService, ReOrderBody, SubCategoryBody } from "./garments";
import { ModifierBody, type ModifierService } from "./modifiers";
import { BulkPriceBody, PriceBody, type PriceService } from "./prices";

/**
 * Everyone at the counter reads the catalogue. It is shared by every shop, so only
 * head-quarters staff change it (spec §6 says admins; a shop's admin reads it).
 */
const staff = { roles: ROLES };
const optionalId = z.coerce.number().int().positive().optional();

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
    route({ method: "GET", path: "/actions/", tag: "catalogue", summary: "Actions with their computed price", access: staff, handler: ({ caller }) => actions.list(caller) }),
    route({ method: "GET", path: "/actions/:id", tag: "catalogue", summary: "One action", access: staff, params: IdParams, handler: ({ params }) => actions.get(params.id) }),
    route({ method: "POST", path: "/actions/", tag: "catalogue", summary: "Creates an action", access: HQ_STAFF, body: ActionBody, idempotent: true, handler: ({ caller, body }) => actions.create(caller, body) }),
    route({ method: "PUT", path: "/actions/:id", tag: "catalogue", summary: "Updates an action; is_percentage off clears is_percentage_of", access: HQ_STAFF, params: IdParams, body: ActionBody.partial(), handler: ({ caller, params, body }) => actions.update(caller, params.id, body) }),
    route({ method: "DELETE", path: "/actions/:id", tag: "catalogue", summary: "Removes an action no ticket uses", access: HQ_STAFF, params: IdParams, handler: ({ caller, params }) => actions.remove(caller, params.id) }),

    // ---- garment categories
    route({ method: "GET", path: "/garmentCategories/", tag: "catalogue", summary: "Categories with their garments, in order", access: staff, handler: ({ caller }) => garments.listCategories(caller) }),
    route({ method: "PUT", path: "/garmentCategories/reOrder", tag: "catalogue", summary: "Saves the order of categories (array of ids)", access: HQ_STAFF, body: ReOrderBody, handler: ({ caller, body }) => garments.reOrderCategories(caller, body) }),
    route({ method: "GET", path: "/garmentCategories/:id", tag: "catalogue", summary: "One category with its garments", access: staff, params: IdParams, handler: ({ params }) => garments.getCategory(params.id) }),
    route({ method: "POST", path: "/garmentCategories/", tag: "catalogue", summary: "Creates a category", access: HQ_STAFF, body: CategoryBody, idempotent: true, handler: ({ caller, body }) => garments.createCategory(caller, body) }),
    route({ method: "PUT", path: "/garmentCategories/:id", tag: "catalogue", summary: "Updates a category", access: HQ_STAFF, params: IdParams, body: CategoryBody.partial(), handler: ({ caller, params, body }) => garments.updateCategory(caller, params.id, body) }),
    route({ method: "DELETE", path: "/garmentCategories/:id", tag: "catalogue", summary: "Removes an empty category", access: HQ_STAFF, params: IdParams, handler: ({ caller, params }) => garments.removeCategory(caller, params.id) }),

    // ---- garments (sub-categories)
    route({
      method: "GET",
      path: "/garmentSubCategories/",
      tag: "catalogue",
      summary: "Garments with their action prices (optional garment_category_id)",
      access: staff,
      query: z.object({ garment_category_id: optionalId }),
      handler: ({ caller, query }) => garments.listSubCategories(caller, query.garment_category_id),
    }),
    route({
      method: "GET",
      path: "/garmentSubCategories/priceList",
      tag: "catalogue",
      summary: "The printable price list (PDF); Employee and Agent tokens may come in the query; preview=true shows it inline",
      access: staff,
      queryToken: "Employee",
      query: z.object({ Employee: z.string().max(2000).optional(), Agent: z.string().max(2000).optional(), preview: z.enum(["true", "false"]).optional() }),
      raw: true,
      handler: async ({ caller, query }) => {
        const { pdf, filename } = await s.priceList({ agent: caller.agent.name, employee: caller.employee.full_name });
        return pdfResponse(pdf, filename, query.preview === "true", SECURITY_HEADERS);
      },
    }),
    route({ method: "PUT", path: "/garmentSubCategories/reOrder", tag: "catalogue", summary: "Saves the order of garments (array of ids)", access: HQ_STAFF, body: ReOrderBody, handler: ({ caller, body }) => garments.reOrderSubCategories(caller, body) }),
    route({ method: "GET", path: "/garmentSubCategories/:id", tag: "catalogue", summary: "One garment with its action prices", access: staff, params: IdParams, handler: ({ params }) => garments.getSubCategory(params.id) }),
    route({ method: "POST", path: "/garmentSubCategories/", tag: "catalogue", summary: "Creates a garment", access: HQ_STAFF, body: SubCategoryBody, idempotent: true, handler: ({ caller, body }) => garments.createSubCategory(caller, body) }),
    route({ method: "PUT", path: "/garmentSubCategories/:id", tag: "catalogue", summary: "Updates a garment", access: HQ_STAFF, params: IdParams, body: SubCategoryBody.partial(), handler: ({ caller, params, body }) => garments.updateSubCategory(caller, params.id, body) }),
    route({ method: "DELETE", path: "/garmentSubCategories/:id", tag: "catalogue", summary: "Removes a garment no ticket uses", access: HQ_STAFF, params: IdParams, handler: ({ caller, params }) => garments.removeSubCategory(caller, params.id) }),

    // ---- modifiers
    route({ method: "GET", path: "/modifiers/", tag: "catalogue", summary: "Modifiers by type and order", access: staff, handler: ({ caller }) => modifiers.list(caller) }),
    route({ method: "PUT", path: "/modifiers/reOrder", tag: "catalogue", summary: "Saves the order of modifiers (array of ids)", access: HQ_STAFF, body: ReOrderBody, handler: ({ caller, body }) => modifiers.reOrder(caller, body) }),
    route({ method: "GET", path: "/modifiers/:id", tag: "catalogue", summary: "One modifier", access: staff, params: IdParams, handler: ({ params }) => modifiers.get(params.id) }),
    route({ method: "POST", path: "/modifiers/", tag: "catalogue", summary: "Creates a modifier (parent_id 0 = root)", access: HQ_STAFF, body: ModifierBody, idempotent: true, handler: ({ caller, body }) => modifiers.create(caller, body) }),
    route({ method: "PUT", path: "/modifiers/:id", tag: "catalogue", summary: "Updates a modifier", access: HQ_STAFF, params: IdParams, body: ModifierBody.partial(), handler: ({ caller, params, body }) => modifiers.update(caller, params.id, body) }),
    route({ method: "DELETE", path: "/modifiers/:id", tag: "catalogue", summary: "Removes a modifier (and its sub-modifiers) no ticket uses", access: HQ_STAFF, params: IdParams, handler: ({ caller, params }) => modifiers.remove(caller, params.id) }),

    // ---- prices per garment
    route({
      method: "GET",
      path: "/actionGarmentSubCategories/",
      tag: "catalogue",
      summary: "Action prices per garment (optional filters garment_sub_category_id, action_id)",
      access: staff,
      query: z.object({ garment_sub_category_id: optionalId, action_id: optionalId }),
      handler: ({ query }) => prices.list(query),
    }),
    route({ method: "PUT", path: "/actionGarmentSubCategories/bulk", tag: "catalogue", summary: "Saves the quick price grid in one go (flat prices; null clears)", access: HQ_STAFF, body: BulkPriceBody, handler: ({ caller, body }) => prices.saveGrid(caller, body) }),
    route({ method: "GET", path: "/actionGarmentSubCategories/:id", tag: "catalogue", summary: "One action price", access: staff, params: IdParams, handler: ({ params }) => prices.get(params.id) }),
    route({ method: "POST", path: "/actionGarmentSubCategories/", tag: "catalogue", summary: "Creates an action price for a garment", access: HQ_STAFF, body: PriceBody, idempotent: true, handler: ({ caller, body }) => prices.create(caller, body) }),
    route({ method: "PUT", path: "/actionGarmentSubCategories/:id", tag: "catalogue", summary: "Updates an action price (cycles and other garments refused)", access: HQ_STAFF, params: IdParams, body: PriceBody.partial(), handler: ({ caller, params, body }) => prices.update(caller, params.id, body) }),
    route({ method: "DELETE", path: "/actionGarmentSubCategories/:id", tag: "catalogue", summary: "Removes an action price", access: HQ_STAFF, params: IdParams, handler: ({ caller, params }) => prices.remove(caller, params.id) }),
  ];
}
