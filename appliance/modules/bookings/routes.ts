import { z } from "zod";
import { route } from "../../http/route";
import { IdParams } from "../../domain/schemas";
import { conflict } from "../../platform/errors";
import type { DownlinkHq } from "./downlink";
import { BookingListQuery, DownlinkQuery, DownlinkRow, SettleBody, ShopBooking } from "./model";
import type { BookingService } from "./service";
import { chainTransferRoutes } from "./transferRoutes";
import type { TransferHq } from "./transfers";

const tag = "bookings";

export function bookingRoutes(
  bookings: BookingService,
  downlink: {
    hq: DownlinkHq | null;
    /** The site's own token check (HQ only; reference/siteTokens.ts): site A's token never reads site B's envelopes. */
    checkPeer: (authorization: string | null, client: string, site: string) => Promise<void>;
    /** HQ's side of the deposit transfers between boxes (issue 34), null on a shop's box. */
    transfers: TransferHq | null;
  },
) {
  return [
    route({
      method: "GET",
      path: "/bookings/",
      tag,
      summary: "The shop's online bookings, newest first (HQ: every shop's), with what became of each",
      access: { roles: ["admin", "manager", "employee"] },
      query: BookingListQuery,
      response: z.array(ShopBooking),
      handler: ({ caller, query }) => bookings.list(caller, query.limit),
    }),
    route({
      method: "PUT",
      path: "/bookings/:id",
      tag,
      summary: 'Settles an online booking: {status:"cancelled", reason} takes the pickup off the run; {day} moves it to another day with room',
      access: { roles: ["admin", "manager"] },
      params: IdParams,
      body: SettleBody,
      response: ShopBooking,
      handler: ({ caller, params, body }) => bookings.settle(caller, params.id, body),
    }),
    route({
      method: "GET",
      path: "/bookings/downlink",
      tag,
      summary:
        "HQ: the signed envelopes (online bookings) for one shop box after ?after, for the shop's poll (Authorization: Bearer <the site's own token, IRONBOX_HQ_SITE_TOKEN>; the chain-wide enrolment token is refused)",
      // Another box, not a person: the handler checks the enrolment token, not a session.
      access: { public: true },
      peerAuth: true,
      query: DownlinkQuery,
      response: z.array(DownlinkRow),
      handler: async ({ request, query, client }) => {
        await downlink.checkPeer(request.headers.get("authorization"), client, query.site);
        if (!downlink.hq) throw conflict("This box does not serve bookings (it is not head quarters' box)");
        return downlink.hq.serve(query.site, query.after);
      },
    }),
    ...chainTransferRoutes(downlink.transfers),
  ];
}
