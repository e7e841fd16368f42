// What other modules may read of images (issue 23: a module's tables are its own).
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { images } from "../../../db/schema";

/** Whether this employee uploaded an image: employees keeps their record then (issue 22). */
export async function namesEmployee(db: Pick<Db, "select">, employeeId: number): Promise<boolean> {
  const [r] = await db.select({ one: images.uploaded_by }).from(images).where(eq(images.uploaded_by, employeeId)).limit(1);
  return r !== undefined;
}
