import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import type { Role } from "../../appliance/domain/people";
import type { Me } from "../../appliance/modules/auth/model";
import { useManaged } from "../features/reference/state";
import { api } from "../lib/api";
import { type EmployeeClaims, employee } from "../lib/session";

/** Spec §6 menu visibility; the server enforces the same rules on every route. */
export type Access = "all" | "admin" | "notDriver" | "scheduler" | "hqStaff" | "managers";

/**
 * `hqAgent`: whether the logged-in agent is head quarters (undefined while unknown). The
 * Scheduler is for users of the HQ agent (spec §2), which the token does not say.
 */
export function allowed(access: Access, e: Pick<EmployeeClaims, "role" | "hq"> | null, hqAgent?: boolean): boolean {
  if (!e) return false;
  switch (access) {
    case "all":
      return true;
    case "admin":
      return e.role === "admin";
    case "notDriver":
      return e.role !== "driver";
    // The till's end of day (issue 24): admins and managers, as the server's /till routes.
    case "managers":
      return e.role === "admin" || e.role === "manager";
    // Hidden from manager and employee (spec §6), and shown only to the HQ agent's users (spec §2;
    // the server's rule for the scheduler's routes).
    case "scheduler":
      return (e.role === "admin" || e.role === "driver") && hqAgent === true;
    // The server's HQ_STAFF (the chain's Sites and reports): an admin of the HQ agent or with the HQ flag.
    case "hqStaff":
      return e.role === "admin" && (e.hq || hqAgent === true);
  }
}

/** Whether each agent is the head-quarters one, asked once per agent (the token does not say). */
const agentIsHq = new Map<number, boolean>();

/** Whether the logged-in agent is head quarters; false until known, so nothing editable flashes up. */
export function useHqAgent(): boolean {
  return useAgentIsHq() === true;
}

/** Whether the logged-in agent is head quarters, or undefined until the box has said. */
export function useAgentIsHq(): boolean | undefined {
  useSignals();
  const agentId = employee.value?.agent_id;
  const [, setKnown] = useState(0);
  useEffect(() => {
    if (agentId === undefined || agentIsHq.has(agentId)) return;
    api<Me>("GET", "/me", { quiet: true }).then(
      (me) => {
        agentIsHq.set(me.agent.id, me.agent.is_hq);
        setKnown((n) => n + 1);
      },
      () => {},
    );
  }, [agentId]);
  return agentId === undefined ? undefined : agentIsHq.get(agentId);
}

/**
 * Chain-wide reference data (catalogue, places and preferences, delivery states) is changed by
 * head-quarters staff only: an admin of the HQ agent, or an admin with the HQ flag. A shop's
 * admin sees those screens read-only; so does everyone on a box HQ manages (issue 15: the data
 * arrives as HQ's snapshot), and nobody edits until the box has said which it is.
 */
export function useHqStaff(): boolean {
  const hqAgent = useHqAgent();
  const managed = useManaged();
  const e = employee.value;
  return managed === false && !!e && e.role === "admin" && (e.hq || hqAgent);
}

export const ROLE_LABEL: Record<Role, string> = { admin: "Administrator", manager: "Manager", employee: "Employee", driver: "Driver" };
