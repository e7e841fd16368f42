// What other modules may read of the catalogue (issue 23: a module's tables are its own):
// scheduling names the actions its configurations and workloads are for through this.
import { inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { actions } from "../../../db/schema";

/** Id and name of these actions (unknown ids are absent). */
export async function actionNames(q: Pick<Db, "select">, ids: number[]): Promise<{ id: number; name: string }[]> {
  if (!ids.length) return [];
  return q
    .select({ id: actions.id, name: actions.name })
    .from(actions)
    .where(inArray(actions.id, [...new Set(ids)]));
}
