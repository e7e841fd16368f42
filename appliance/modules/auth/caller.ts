/** Who is calling, and what they may see: shared by every service. */
import { notFound } from "../../platform/errors";

import type { Role } from "../../domain/people";

export { ROLES, type Role } from "../../domain/people";

export interface AgentInfo {
  id: number;
  name: string;
  is_hq: boolean;
}
export interface EmployeeInfo {
  id: number;
  full_name: string;
  role: Role;
  hq: boolean;
}

/** Who is calling. `employee` is set only for an employee token. */
export type Caller =
  | { kind: "none" }
  | { kind: "agent"; jti: string; agent: AgentInfo }
  | { kind: "employee"; jti: string; agent: AgentInfo; employee: EmployeeInfo };

export type EmployeeCaller = Extract<Caller, { kind: "employee" }>;
export type AgentCaller = Extract<Caller, { kind: "agent" | "employee" }>;

/** Head-quarters staff: an employee of the HQ agent, or one with the HQ flag (roles are checked apart). */
export function isHqStaff(caller: EmployeeCaller): boolean {
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
