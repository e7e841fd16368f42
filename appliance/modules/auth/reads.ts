// What other modules may read of auth's tables, and the one change they may ask for (issue 23:
// a module's tables are its own).
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { sessions } from "../../../db/schema";

/** Whether this employee ever logged in: employees keeps the record of anyone history names (issue 22). */
export async function namesEmployee(db: Pick<Db, "select">, employeeId: number): Promise<boolean> {
  const [r] = await db.select({ one: sessions.employee_id }).from(sessions).where(eq(sessions.employee_id, employeeId)).limit(1);
  return r !== undefined;
}

/** Drops an agent's (already ended) sessions when agents removes the agent, inside its transaction. */
export async function dropAgentSessions(tx: Pick<Db, "delete">, agentId: number): Promise<void> {
  await tx.delete(sessions).where(eq(sessions.agent_id, agentId));
}
