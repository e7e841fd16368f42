import { z } from "zod";
import { HQ_STAFF, ROLES, route } from "../../http/route";
import { Pin } from "../auth/routes";
import type { ApprovalService } from "./service";

/**
 * A manager's approval on the spot (issue 11): the manager or admin types their PIN on the
 * employee's tablet and the request carries it. Requests that may need one take it in the
 * body; without it a guarded change answers 403 "Manager approval required: …".
 */
export const Approval = z
  .object({ pin: Pin })
  .describe("A manager's or admin's PIN of the same shop, typed on this tablet to approve the change");
export const WithApproval = z.object({ approval: Approval.optional() });

export function approvalRoutes(approvals: ApprovalService) {
  return [
    route({ method: "GET", path: "/settings/", tag: "settings", summary: "Box settings staff need: discount_limit (whole percent)", access: { roles: ROLES }, handler: () => approvals.settings() }),
    route({
      method: "PUT",
      path: "/settings/",
      tag: "settings",
      summary: "Sets the discount limit above which employees and drivers need a manager's approval (chain-wide: HQ admins)",
      access: HQ_STAFF,
      body: z.object({ discount_limit: z.number().int().min(0).max(100) }),
      handler: ({ caller, body }) => approvals.saveSettings(caller, body),
    }),
  ];
}
