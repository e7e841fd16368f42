import type { EmployeeClaims } from "../lib/session";

type Role = EmployeeClaims["role"];

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

export const ROLE_LABEL: Record<Role, string> = { admin: "Administrator", manager: "Manager", employee: "Employee", driver: "Driver" };
