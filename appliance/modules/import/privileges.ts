// What the old system says cannot take over the box (issue 32). The import reads the old
// system over the network, maybe plain HTTP: whatever answers it could name any shop head
// office or any employee an admin with the HQ flag. Privileges are this box's own decision:
//  - an agent's HQ flag (is_hq) and an employee's HQ flag (hq) are never set nor cleared by
//    the import: a record new to the box comes without, one already here keeps its own;
//  - an employee already on the box never gets a role above the one the box gives them;
//  - an employee new to the box in an agent that is this box's head office (whose admins are
//    HQ staff) comes as a manager at most.
// Each flag or role not taken is listed in the report; an HQ admin grants it on Agents or
// Employees if it is right.
import { eq } from "drizzle-orm";
import { agents, employees } from "../../../db/schema";
import type { Role } from "../auth/caller";
import type { Exec } from "../tickets/repo";
import type * as R from "./records";

/** A privilege the source gave and the import did not take. */
export interface Skipped {
  kind: "agent" | "employee";
  id: number;
  field: "is_hq" | "hq" | "role";
  /** What the old system says. */
  source: boolean | string;
  /** What the record has on this box after the import. */
  kept: boolean | string;
}

/** As the employees service ranks them: nobody is given a role above what the box gives. */
const RANK: Record<Role, number> = { admin: 3, manager: 2, employee: 1, driver: 0 };

/** The agent as the box writes it (its HQ flag the box's own) and what was not taken. */
export async function ownAgentPrivileges(q: Exec, r: R.Agent): Promise<{ record: R.Agent; skipped: Skipped[] }> {
  const here = await q.query.agents.findFirst({ where: eq(agents.id, r.id), columns: { is_hq: true } });
  const is_hq = here?.is_hq ?? false;
  const skipped: Skipped[] = r.is_hq === is_hq ? [] : [{ kind: "agent", id: r.id, field: "is_hq", source: r.is_hq, kept: is_hq }];
  return { record: { ...r, is_hq }, skipped };
}

/** The employee as the box writes them (HQ flag and role within what the box gives) and what was not taken. */
export async function ownEmployeePrivileges(q: Exec, r: R.Employee): Promise<{ record: R.Employee; skipped: Skipped[] }> {
  const here = await q.query.employees.findFirst({ where: eq(employees.id, r.id), columns: { hq: true, role: true, agent_id: true } });
  const skipped: Skipped[] = [];
  const hq = here?.hq ?? false;
  if (r.hq !== hq) skipped.push({ kind: "employee", id: r.id, field: "hq", source: r.hq, kept: hq });
  let role: Role = r.role;
  if (here) {
    if (RANK[r.role] > RANK[here.role]) role = here.role;
  } else if (RANK[r.role] > RANK.manager) {
    const agent = await q.query.agents.findFirst({ where: eq(agents.id, r.agent_id), columns: { is_hq: true } });
    if (agent?.is_hq) role = "manager";
  }
  if (role !== r.role) skipped.push({ kind: "employee", id: r.id, field: "role", source: r.role, kept: role });
  return { record: { ...r, hq, role }, skipped };
}

/** A skipped privilege in words, for the command line's report. */
export function describeSkipped(s: Skipped): string {
  const what = s.field === "role" ? `role ${s.source}` : s.field === "is_hq" ? "head-office flag (is_hq)" : "HQ flag (hq)";
  const kept = s.field === "role" ? `kept ${s.kept}` : s.kept ? "kept it set" : "left it unset";
  return `${s.kind} ${s.id}: the old system's ${what} was not taken (${kept}); privileges are this box's own decision`;
}
