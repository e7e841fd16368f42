import { z } from "zod";
import { HQ_STAFF, ROLES, route } from "../../http/route";
import { IdParams, text } from "../../domain/schemas";
import type { PlaceService } from "./service";

/**
 * Localities, streets and preferences are shared by every shop: head-quarters staff change
 * them. Addresses belong to a shop: any of its staff may add and edit its own.
 */
const staff = { roles: ROLES };
export const AddressBody = z.object({
  name: text(100).optional(),
  number: text(20).optional(),
  locality_id: z.number().int().min(0),
  street_id: z.number().int().min(0),
});
const Name = z.object({ name: text(100).min(1) });

export function placeRoutes(places: PlaceService) {
  return [
    route({ method: "GET", path: "/localities/", tag: "places", summary: "Localities by name", access: staff, handler: () => places.listLocalities() }),
    route({ method: "POST", path: "/localities/", tag: "places", summary: "Adds a locality", access: HQ_STAFF, body: Name, idempotent: true, handler: ({ caller, body }) => places.createLocality(caller, body.name) }),
    route({ method: "PUT", path: "/localities/:id", tag: "places", summary: "Renames a locality", access: HQ_STAFF, params: IdParams, body: Name, handler: ({ caller, params, body }) => places.renameLocality(caller, params.id, body.name) }),
    route({ method: "GET", path: "/streets/locality/:id", tag: "places", summary: "Streets of a locality", access: staff, params: IdParams, handler: ({ params }) => places.listStreets(params.id) }),
    route({
      method: "POST",
      path: "/streets/",
      tag: "places",
      summary: "Adds a street to a locality",
      access: HQ_STAFF,
      body: z.object({ locality_id: z.number().int().positive(), name: text(100).min(1) }),
      idempotent: true,
      handler: ({ caller, body }) => places.createStreet(caller, body.locality_id, body.name),
    }),
    route({
      method: "GET",
      path: "/address/",
      tag: "places",
      summary: "Addresses (optional repeated ids)",
      access: staff,
      query: z.object({ ids: z.union([z.coerce.number().int().positive(), z.array(z.coerce.number().int().positive()).max(500)]).optional() }),
      handler: ({ caller, query }) => places.listAddresses(caller, query.ids === undefined ? undefined : [query.ids].flat()),
    }),
    route({ method: "GET", path: "/address/:id", tag: "places", summary: "One address with its display line", access: staff, params: IdParams, handler: ({ caller, params }) => places.address(caller, params.id) }),
    route({ method: "POST", path: "/address/", tag: "places", summary: "Creates an address (locality and street required)", access: staff, body: AddressBody, idempotent: true, handler: ({ caller, body }) => places.createAddress(caller, body) }),
    route({ method: "PUT", path: "/address/:id", tag: "places", summary: "Updates an address", access: staff, params: IdParams, body: AddressBody.partial(), handler: ({ caller, params, body }) => places.updateAddress(caller, params.id, body) }),
    route({ method: "GET", path: "/preferences/", tag: "places", summary: "Customer preferences", access: staff, handler: () => places.listPreferences() }),
    route({ method: "POST", path: "/preferences/", tag: "places", summary: "Adds a preference", access: HQ_STAFF, body: Name, idempotent: true, handler: ({ caller, body }) => places.createPreference(caller, body.name) }),
    route({ method: "DELETE", path: "/preferences/:id", tag: "places", summary: "Removes a preference", access: HQ_STAFF, params: IdParams, handler: ({ caller, params }) => places.removePreference(caller, params.id) }),
  ];
}
