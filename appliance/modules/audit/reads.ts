// What other modules may read of the audit trail (issue 23: a module's tables are its own).
import { and, asc, eq, inArray, sql } from "drizzle-orm";
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

/**
 * Whether a box recorded its refusal of this deposit transfer (issue 34: an "out" its balance no
 * longer covered): a refused transfer stays refused, whatever is deposited afterwards. Looked up
 * by the customer (the trail's index), then the action and the transfer's id in the detail.
 */
export async function transferRefused(db: Pick<Db, "select">, customerId: number, transferId: string): Promise<boolean> {
  const [r] = await db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, "customer"),
        eq(auditLog.entity_id, customerId),
        eq(auditLog.action, "transfer_refused"),
        sql`json_extract(${auditLog.detail}, '$.transfer_id') = ${transferId}`,
      ),
    )
    .limit(1);
  return r !== undefined;
}
