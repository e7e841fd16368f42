import { computed, signal } from "@preact/signals-react";
import type { AgentClaims, EmployeeClaims } from "../../appliance/modules/auth/model";
import { SESSION_KEYS as KEYS, STORAGE_VERSION } from "./sessionKeys";

/**
 * The two-level session (spec §6): an agent (shop) token, then an employee token. Both live
 * in local storage and are restored at start. Storage older than version 5 is cleared.
 */
export type { AgentClaims, EmployeeClaims } from "../../appliance/modules/auth/model";

export const agentToken = signal<string | null>(null);
export const employeeToken = signal<string | null>(null);

/** Reads a JWT's claims; the server re-checks everything, this only drives the screens. */
export function decodeClaims<T>(token: string | null): T | null {
  if (!token) return null;
  try {
    const part = token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(decodeURIComponent(escape(atob(part)))) as T;
  } catch {
    return null;
  }
}

export const agent = computed(() => decodeClaims<AgentClaims>(agentToken.value));
export const employee = computed(() => decodeClaims<EmployeeClaims>(employeeToken.value));
/** Spec §6: the agent is logged in when its token is present, decodable and not expired. */
export const agentLoggedIn = computed(() => !!agent.value && agent.value.exp * 1000 > Date.now());
export const employeeLoggedIn = computed(() => !!employeeToken.value);

export function restoreSession() {
  const version = Number(localStorage.getItem(KEYS.version) ?? 0);
  if (version < STORAGE_VERSION) {
    localStorage.clear();
    localStorage.setItem(KEYS.version, String(STORAGE_VERSION));
  }
  agentToken.value = localStorage.getItem(KEYS.agent);
  employeeToken.value = localStorage.getItem(KEYS.employee);
}

export function setAgentToken(t: string | null) {
  agentToken.value = t;
  t ? localStorage.setItem(KEYS.agent, t) : localStorage.removeItem(KEYS.agent);
  if (!t) setEmployeeToken(null);
}
export function setEmployeeToken(t: string | null) {
  employeeToken.value = t;
  t ? localStorage.setItem(KEYS.employee, t) : localStorage.removeItem(KEYS.employee);
  if (t) touchActivity();
}

/**
 * When the person at the tablet last touched it. Kept in storage so that reloading the page
 * does not restart the idle clock of the previous employee.
 */
export function touchActivity(now = Date.now()) {
  localStorage.setItem(KEYS.activity, String(now));
}
export function lastActivity(): number | null {
  const v = Number(localStorage.getItem(KEYS.activity));
  return Number.isFinite(v) && v > 0 ? v : null;
}

/** The token requests carry: the employee's once the PIN is in, the agent's before. */
export const currentToken = () => employeeToken.value ?? agentToken.value;
