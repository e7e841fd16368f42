// What other modules may read of printing's tables (issue 23: a module's tables are its own).
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { printJobs } from "../../../db/schema";

/** Whether this employee printed anything: employees keeps their record then (issue 22). */
export async function namesEmployee(db: Pick<Db, "select">, employeeId: number): Promise<boolean> {
  const [r] = await db.select({ one: printJobs.employee_id }).from(printJobs).where(eq(printJobs.employee_id, employeeId)).limit(1);
  return r !== undefined;
}
