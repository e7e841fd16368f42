// What other modules may read of images, and the one change they may ask for (issue 23: a
// module's tables are its own).
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { images } from "../../../db/schema";

/** Whether this employee uploaded an image: employees keeps their record then (issue 22). */
export async function namesEmployee(db: Pick<Db, "select">, employeeId: number): Promise<boolean> {
  const [r] = await db.select({ one: images.uploaded_by }).from(images).where(eq(images.uploaded_by, employeeId)).limit(1);
  return r !== undefined;
}

/** When agents removes an agent, the images it still owns pass to head quarters (no owner), inside agents' transaction. */
export async function releaseAgentImages(tx: Pick<Db, "update">, agentId: number): Promise<void> {
  await tx.update(images).set({ agent_id: null }).where(eq(images.agent_id, agentId));
}
