import { z } from "zod";
import { HQ_STAFF, ROLES, route } from "../../http/route";
import { IdParams, IsoDate } from "../../domain/schemas";
import { DescSearchQuery, Journey, journeyOut, ScanAnswer, scanOut, StateName, TicketState, TrackedItem, trackedOut } from "./model";
import type { TrackingService } from "./service";
import { LocationBody, LocationResult, TicketLocations, TicketLocationsQuery, Unclaimed, UnclaimedQuery, unclaimedOut } from "./model";
import type { WhereaboutsService } from "./whereabouts";

const staff = { roles: ROLES };
const optionalId = z.coerce.number().int().positive().optional();

export function trackingRoutes(tracking: TrackingService, today: () => string, weekAgo: () => string) {
  return [
    route({
      method: "GET",
      path: "/tracking/scan",
      response: ScanAnswer,
      tag: "tracking",
      summary: "Reads a scanned code and returns its ticket's or items' rows for the tracking list",
      access: staff,
      query: z.object({ code: z.string().max(500) }),
      handler: async ({ caller, query }) => scanOut(await tracking.scan(caller, query.code)),
    }),
    route({
      method: "GET",
      path: "/tracking/search",
      response: z.array(TrackedItem),
      tag: "tracking",
      summary: "Items found by description (tracking ?type=desc): the shop's items not yet delivered or closed, newest first, at most 50",
      access: staff,
      query: DescSearchQuery,
      handler: async ({ caller, query }) => (await tracking.byDescription(caller, query.desc)).map(trackedOut),
    }),
    route({
      method: "GET",
      path: "/ticketLogStates/logStateJourney/query",
      response: Journey,
      tag: "tracking",
      summary: "State logs: item state changes by ticket (tid), employee (eid), days df..dt and state (s)",
      access: { roles: ["admin", "manager", "employee"] },
      query: z.object({ tid: optionalId, eid: optionalId, df: IsoDate.optional(), dt: IsoDate.optional(), s: z.string().max(60).optional() }),
      handler: async ({ caller, query }) => journeyOut(await tracking.journey(caller, { ...query, df: query.df ?? weekAgo(), dt: query.dt ?? today() })),
    }),
    route({
      method: "POST",
      path: "/ticketStates/",
      response: TicketState,
      tag: "tracking",
      summary: "Adds a locality delivery state",
      access: HQ_STAFF,
      hqOwned: true,
      body: StateName,
      idempotent: true,
      handler: ({ caller, body }) => tracking.addState(caller, body.name),
    }),
    route({
      method: "PUT",
      path: "/ticketStates/:id",
      response: TicketState,
      tag: "tracking",
      summary: "Renames a locality delivery state",
      access: HQ_STAFF,
      hqOwned: true,
      params: IdParams,
      body: StateName,
      handler: ({ caller, params, body }) => tracking.renameState(caller, params.id, body.name),
    }),
  ];
}

/** Issue 25 "Where is it?": racks (item locations) and the unclaimed list. */
export function whereaboutsRoutes(where: WhereaboutsService) {
  return [
    route({
      method: "PUT",
      path: "/ticketSubCategory/location",
      response: LocationResult,
      tag: "tracking",
      summary: "Puts items (Ids) and every item of whole tickets (ticket_ids) on a rack or slot; \"\" takes them off. All must be the caller's shop's",
      access: staff,
      body: LocationBody,
      handler: ({ caller, body }) => where.setLocation(caller, body),
    }),
    route({
      method: "GET",
      path: "/tickets/locations",
      response: z.array(TicketLocations),
      tag: "tracking",
      summary: "Where each ticket's items wait (its items' distinct locations), for up to 100 of the caller's shop's tickets",
      access: staff,
      query: TicketLocationsQuery,
      handler: ({ caller, query }) => where.ticketLocations(caller, query.ids),
    }),
    route({
      method: "GET",
      path: "/ticketSubCategory/unclaimed",
      response: Unclaimed,
      tag: "tracking",
      summary: "Items ready and not collected for more than `days` days (default 30), oldest first, with the customer's contact; at most 500",
      access: { roles: ["admin", "manager", "employee"] },
      query: UnclaimedQuery,
      handler: async ({ caller, query }) => unclaimedOut(await where.unclaimed(caller, query.days)),
    }),
  ];
}
