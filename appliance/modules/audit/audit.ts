import type { Db } from "../../../db/client";
import { auditLog } from "../../../db/schema";
import type { Caller } from "../auth/caller";

type Tx = Pick<Db, "insert">;

/** Appends one row to the audit trail (the table refuses UPDATE and DELETE). */
export async function audit(
  db: Tx,
  at: Date,
  caller: Caller,
  action: string,
  entity: string,
  entityId: number | null,
  detail: Record<string, unknown> = {},
): Promise<void> {
  await db.insert(auditLog).values({
    at: at.toISOString(),
    agent_id: caller.kind === "none" ? null : caller.agent.id,
    employee_id: caller.kind === "employee" ? caller.employee.id : null,
    action,
    entity,
    entity_id: entityId,
    detail: JSON.stringify(detail),
  });
}

/**
 * What an update changed, for the audit row: each written field that differs, as
 * [before, after]. Fields written with their current value are left out.
 */
export function changes(before: Record<string, unknown>, written: Record<string, unknown>): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const [k, v] of Object.entries(written)) if (v !== undefined && before[k] !== v) out[k] = [before[k] ?? null, v];
  return out;
}
