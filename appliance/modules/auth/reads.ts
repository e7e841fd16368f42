// What other modules may read of auth's tables (issue 23: a module's tables are its own).
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { sessions } from "../../../db/schema";

/** Whether this employee ever logged in: employees keeps the record of anyone history names (issue 22). */
export async function namesEmployee(db: Pick<Db, "select">, employeeId: number): Promise<boolean> {
  const [r] = await db.select({ one: sessions.employee_id }).from(sessions).where(eq(sessions.employee_id, employeeId)).limit(1);
  return r !== undefined;
}
