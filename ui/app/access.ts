import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useState } from "react";
import type { Role } from "../../appliance/domain/people";
import type { Me } from "../../appliance/modules/auth/model";
import { api } from "../lib/api";
import { type EmployeeClaims, employee } from "../lib/session";

/** Spec §6 menu visibility; the server enforces the same rules on every route. */
export type Access = "all" | "admin" | "notDriver" | "scheduler";

export function allowed(access: Access, e: Pick<EmployeeClaims, "role" | "hq"> | null): boolean {
  if (!e) return false;
  switch (access) {
    case "all":
      return true;
    case "admin":
      return e.role === "admin";
    case "notDriver":
      return e.role !== "driver";
    // Hidden from manager and employee, and needs the HQ flag.
    case "scheduler":
      return (e.role === "admin" || e.role === "driver") && e.hq;
  }
}

/** Whether each agent is the head-quarters one, asked once per agent (the token does not say). */
const agentIsHq = new Map<number, boolean>();

/** Whether the logged-in agent is head quarters; false until known, so nothing editable flashes up. */
export function useHqAgent(): boolean {
  useSignals();
  const agentId = employee.value?.agent_id;
  const [, setKnown] = useState(0);
  useEffect(() => {
    if (agentId === undefined || agentIsHq.has(agentId)) return;
    api<Me>("GET", "/me", { quiet: true }).then((me) => {
      agentIsHq.set(me.agent.id, me.agent.is_hq);
      setKnown((n) => n + 1);
    }, () => {});
  }, [agentId]);
  return agentId !== undefined && agentIsHq.get(agentId) === true;
}

/**
 * Chain-wide reference data (catalogue, places and preferences, delivery states) is changed by
 * head-quarters staff only: an admin of the HQ agent, or an admin with the HQ flag. A shop's
 * admin sees those screens read-only.
 */
export function useHqStaff(): boolean {
  const hqAgent = useHqAgent();
  const e = employee.value;
  return !!e && e.role === "admin" && (e.hq || hqAgent);
}

export const ROLE_LABEL: Record<Role, string> = { admin: "Administrator", manager: "Manager", employee: "Employee", driver: "Driver" };
