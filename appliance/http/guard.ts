import { forbidden, notFound, unauthorized } from "./errors";
import type { Access, AgentCaller, Caller } from "./route";

/** The one check every route goes through: is this caller allowed at all? */
export function authorize(access: Access, caller: Caller): void {
  if ("public" in access) return;
  if (caller.kind === "none") throw unauthorized("Token required: log in first");
  if ("agent" in access) return;
  if (caller.kind !== "employee") throw unauthorized("Employee login required: enter your PIN");
  if (!access.roles.includes(caller.employee.role)) throw forbidden();
  if (access.hqEmployee && !caller.employee.hq) throw forbidden("Only head-quarters staff may do this");
  if (access.hqAgent && !caller.agent.is_hq) throw forbidden("Only the head-quarters agent may do this");
  if (access.hqStaff && !isHqStaff(caller)) throw forbidden("Only head-quarters staff may change data shared by every shop");
}

/** Head-quarters staff: an employee of the HQ agent, or one with the HQ flag (roles are checked apart). */
export function isHqStaff(caller: Extract<Caller, { kind: "employee" }>): boolean {
  return caller.agent.is_hq || caller.employee.hq;
}

/**
 * Agent scoping: the head-quarters agent sees every agent's records, a shop agent only its
 * own. Returns null for "all agents".
 */
export function agentScope(caller: AgentCaller): number[] | null {
  return caller.agent.is_hq ? null : [caller.agent.id];
}

/** Another agent's record answers 404, as if it did not exist. */
export function assertSameAgent(caller: AgentCaller, agentId: number, what = "Record"): void {
  if (!caller.agent.is_hq && caller.agent.id !== agentId) throw notFound(what);
}
