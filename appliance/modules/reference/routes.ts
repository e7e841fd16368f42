import { HQ_STAFF, ROLES, route } from "../../http/route";
import { jsonResponse, ok } from "../../http/envelope";
import { SECURITY_HEADERS } from "../../http/security";
import { PublishResult, ReferenceStatus, SignedSnapshot, SiteTokenBody, SiteTokenResult, SnapshotQuery } from "./model";
import type { ReferenceService } from "./service";
import type { SiteTokens } from "./siteTokens";

export function referenceRoutes(reference: ReferenceService, siteTokens: SiteTokens) {
  return [
    route({
      // POST: it hands out a credential (audited), never a cacheable read with the site in a logged URL.
      method: "POST",
      path: "/reference/siteToken",
      tag: "reference",
      summary: "HQ: a shop box's own token for what HQ sends that site alone (the bookings downlink), to set as IRONBOX_HQ_SITE_TOKEN on it; audited",
      access: HQ_STAFF,
      body: SiteTokenBody,
      response: SiteTokenResult,
      handler: ({ caller, body }) => siteTokens.issue(caller, body.site),
    }),
    route({
      method: "POST",
      path: "/reference/publish",
      tag: "reference",
      summary: "HQ: signs the chain's reference data (catalogue, prices, states, places, settings shops share) as a new snapshot version",
      access: HQ_STAFF,
      response: PublishResult,
      handler: ({ caller }) => reference.publish(caller),
    }),
    route({
      method: "GET",
      path: "/reference/snapshot/latest",
      tag: "reference",
      summary: "HQ: the newest signed snapshot, for shop boxes (Authorization: Bearer <IRONBOX_HQ_TOKEN>); 204 when there is none newer than ?after",
      // Another box, not a person: the handler checks the enrolment token, not a session.
      access: { public: true },
      peerAuth: true,
      raw: true,
      query: SnapshotQuery,
      response: SignedSnapshot,
      handler: async ({ request, query, client }) => {
        const snapshot = await reference.latest(request.headers.get("authorization"), client, query.after);
        if (!snapshot) return new Response(null, { status: 204, headers: SECURITY_HEADERS });
        return jsonResponse(200, ok(snapshot), SECURITY_HEADERS);
      },
    }),
    route({
      method: "GET",
      path: "/reference/status",
      tag: "reference",
      summary: "Which reference data version this box runs and since when; on a shop, whether HQ manages it and the last check",
      access: { roles: ROLES },
      response: ReferenceStatus,
      handler: () => reference.status(),
    }),
    route({
      method: "POST",
      path: "/reference/sync",
      tag: "reference",
      summary: "Shop: fetches head quarters' newest reference data now",
      access: { roles: ["admin"] },
      response: ReferenceStatus,
      handler: () => reference.sync(),
    }),
  ];
}
