import { z } from "zod";
import { HQ_STAFF, ROLES, route } from "../../http/route";
import { IdParams } from "../../domain/schemas";
import { Address, AddressBody, AddressIdsQuery, Locality, NameBody, Preference, Street, StreetBody } from "./model";
import type { PlaceService } from "./service";

/**
 * Localities, streets and preferences are shared by every shop: head-quarters staff change
 * them. Addresses belong to a shop: any of its staff may add and edit its own.
 */
const staff = { roles: ROLES };

export function placeRoutes(places: PlaceService) {
  return [
    route({
      method: "GET",
      path: "/localities/",
      tag: "places",
      summary: "Localities by name",
      access: staff,
      response: z.array(Locality),
      handler: () => places.listLocalities(),
    }),
    route({
      method: "POST",
      path: "/localities/",
      tag: "places",
      summary: "Adds a locality",
      access: HQ_STAFF,
      response: Locality,
      body: NameBody,
      idempotent: true,
      handler: ({ caller, body }) => places.createLocality(caller, body.name),
    }),
    route({
      method: "PUT",
      path: "/localities/:id",
      tag: "places",
      summary: "Renames a locality",
      access: HQ_STAFF,
      response: Locality,
      params: IdParams,
      body: NameBody,
      handler: ({ caller, params, body }) => places.renameLocality(caller, params.id, body.name),
    }),
    route({
      method: "GET",
      path: "/streets/locality/:id",
      tag: "places",
      summary: "Streets of a locality",
      access: staff,
      response: z.array(Street),
      params: IdParams,
      handler: ({ params }) => places.listStreets(params.id),
    }),
    route({
      method: "POST",
      path: "/streets/",
      tag: "places",
      summary: "Adds a street to a locality",
      access: HQ_STAFF,
      body: StreetBody,
      response: Street,
      idempotent: true,
      handler: ({ caller, body }) => places.createStreet(caller, body.locality_id, body.name),
    }),
    route({
      method: "GET",
      path: "/address/",
      tag: "places",
      summary: "Addresses (optional repeated ids)",
      access: staff,
      query: AddressIdsQuery,
      response: z.array(Address),
      handler: ({ caller, query }) => places.listAddresses(caller, query.ids === undefined ? undefined : [query.ids].flat()),
    }),
    route({
      method: "GET",
      path: "/address/:id",
      tag: "places",
      summary: "One address with its display line",
      access: staff,
      response: Address,
      params: IdParams,
      handler: ({ caller, params }) => places.address(caller, params.id),
    }),
    route({
      method: "POST",
      path: "/address/",
      tag: "places",
      summary: "Creates an address (locality and street required)",
      access: staff,
      response: Address,
      body: AddressBody,
      idempotent: true,
      handler: ({ caller, body }) => places.createAddress(caller, body),
    }),
    route({
      method: "PUT",
      path: "/address/:id",
      tag: "places",
      summary: "Updates an address",
      access: staff,
      response: Address,
      params: IdParams,
      body: AddressBody.partial(),
      handler: ({ caller, params, body }) => places.updateAddress(caller, params.id, body),
    }),
    route({
      method: "GET",
      path: "/preferences/",
      tag: "places",
      summary: "Customer preferences",
      access: staff,
      response: z.array(Preference),
      handler: () => places.listPreferences(),
    }),
    route({
      method: "POST",
      path: "/preferences/",
      tag: "places",
      summary: "Adds a preference",
      access: HQ_STAFF,
      response: Preference,
      body: NameBody,
      idempotent: true,
      handler: ({ caller, body }) => places.createPreference(caller, body.name),
    }),
    route({
      method: "DELETE",
      path: "/preferences/:id",
      tag: "places",
      summary: "Removes a preference",
      access: HQ_STAFF,
      response: z.literal(true),
      params: IdParams,
      handler: ({ caller, params }) => places.removePreference(caller, params.id),
    }),
  ];
}
