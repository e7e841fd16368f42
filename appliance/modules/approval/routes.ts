import { HQ_STAFF, ROLES, route } from "../../http/route";
import { Settings } from "./model";
import type { ApprovalService } from "./service";

// The tickets routes still import these from here; the model owns them.
export { Approval, WithApproval } from "./model";

export function approvalRoutes(approvals: ApprovalService) {
  return [
    route({
      method: "GET",
      path: "/settings/",
      tag: "settings",
      summary: "Box settings staff need: discount_limit (whole percent)",
      access: { roles: ROLES },
      response: Settings,
      handler: () => approvals.settings(),
    }),
    route({
      method: "PUT",
      path: "/settings/",
      tag: "settings",
      summary: "Sets the discount limit above which employees and drivers need a manager's approval (chain-wide: HQ admins)",
      access: HQ_STAFF,
      body: Settings,
      response: Settings,
      handler: ({ caller, body }) => approvals.saveSettings(caller, body),
    }),
  ];
}
