import { forbidden, unauthorized } from "../platform/errors";
import { isHqStaff } from "../modules/auth/caller";
import type { Access, Caller } from "./route";

/** The one check every route goes through: is this caller allowed at all? `write`: the request changes data. */
export function authorize(access: Access, caller: Caller, write = true): void {
  if ("public" in access) return;
  if (caller.kind === "none") throw unauthorized("Token required: log in first");
  if ("agent" in access) return;
  if (caller.kind !== "employee") throw unauthorized("Employee login required: enter your PIN");
  if (!access.roles.includes(caller.employee.role)) throw forbidden();
  if (access.hqEmployee && !caller.employee.hq) throw forbidden("Only head-quarters staff may do this");
  if (access.hqAgent && !caller.agent.is_hq) throw forbidden("Only the head-quarters agent may do this");
  if (access.hqStaff && !isHqStaff(caller))
    throw forbidden(write ? "Only head-quarters staff may change data shared by every shop" : "Only head-quarters staff may see the whole chain");
}
