// Issue 35: the staff side of status links, on the staff API: a manager ends a ticket's links.
import { route, type RouteDef } from "../../http/route";
import { RevokeParams, Revoked } from "./model";
import type { StatusLinks } from "./links";

export function statusLinkRoutes(links: Pick<StatusLinks, "revoke">): RouteDef[] {
  return [
    route({
      method: "PUT",
      path: "/tickets/:id/statusLink/revoke",
      tag: "Tickets",
      summary: "Ends every status link of the ticket (the customer's messages then open nothing)",
      access: { roles: ["admin", "manager"] },
      params: RevokeParams,
      response: Revoked,
      handler: ({ caller, params }) => links.revoke(caller, params.id),
    }),
  ];
}
