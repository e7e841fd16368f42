// What other modules may read of the catalogue (issue 23: a module's tables are its own):
// scheduling names the actions its configurations and workloads are for through this.
import { inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { actions, garmentSubCategories } from "../../../db/schema";

/** Id and name of these actions (unknown ids are absent). */
export async function actionNames(q: Pick<Db, "select">, ids: number[]): Promise<{ id: number; name: string }[]> {
  if (!ids.length) return [];
  return q
    .select({ id: actions.id, name: actions.name })
    .from(actions)
    .where(inArray(actions.id, [...new Set(ids)]));
}

/** Names of these garments by id (unknown ids are absent): the public status page lists a ticket's garments (issue 35). */
export async function garmentNames(q: Pick<Db, "select">, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await q
    .select({ id: garmentSubCategories.id, name: garmentSubCategories.name })
    .from(garmentSubCategories)
    .where(inArray(garmentSubCategories.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r.name]));
}
