// What other modules may read of the audit trail (issue 23: a module's tables are its own).
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { auditLog } from "../../../db/schema";

/** Whether the audit trail names this employee: employees keeps their record then (issue 22). */
export async function namesEmployee(db: Pick<Db, "select">, employeeId: number): Promise<boolean> {
  const [r] = await db.select({ one: auditLog.employee_id }).from(auditLog).where(eq(auditLog.employee_id, employeeId)).limit(1);
  return r !== undefined;
}

/** The audit rows about these records of one kind (a customer's data export, issue 35). */
export async function auditAbout(db: Pick<Db, "select">, entity: string, ids: number[]) {
  if (!ids.length) return [];
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entity, entity), inArray(auditLog.entity_id, ids)))
    .orderBy(asc(auditLog.id));
}
