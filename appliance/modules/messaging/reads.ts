// What other modules may read of messaging's tables (issue 23: a module's tables are its own).
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { messageBatches, messageTemplates, outgoingMessages } from "../../../db/schema";

/** Whether this employee sent a message, started a bulk send or edited a template: employees keeps their record then (issue 22). */
export async function namesEmployee(db: Pick<Db, "select">, employeeId: number): Promise<boolean> {
  const checks = [
    () => db.select({ one: outgoingMessages.employee_id }).from(outgoingMessages).where(eq(outgoingMessages.employee_id, employeeId)).limit(1),
    () => db.select({ one: messageBatches.employee_id }).from(messageBatches).where(eq(messageBatches.employee_id, employeeId)).limit(1),
    () => db.select({ one: messageTemplates.updated_by }).from(messageTemplates).where(eq(messageTemplates.updated_by, employeeId)).limit(1),
  ];
  for (const check of checks) if ((await check()).length) return true;
  return false;
}
