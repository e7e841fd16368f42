import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { unprocessable } from "../../platform/errors";
import { actionListOf } from "../agents/reads";
import type { EmployeeCaller } from "../auth/caller";

/**
 * Spec §6 `can_see_action`: head quarters may limit the actions a shop's staff see and use.
 * The agent's `can_see_action` holds action ids separated by ',' (';' and spaces are read
 * too), e.g. "1,2,5"; null or blank means every action. Parts that are not ids are ignored,
 * so a list without any id leaves that shop no action. HQ staff (the HQ agent's employees and
 * employees with the HQ flag) maintain the chain's catalogue and always see every action.
 */
export function parseActionIds(text: string | null | undefined): number[] | null {
  if (!text?.trim()) return null;
  return text
    .split(/[\s,;]+/)
    .filter((p) => /^\d{1,12}$/.test(p))
    .map(Number)
    .filter((n) => n > 0);
}

type Reader = Pick<Db, "select">;

/** The action ids the caller may see and use; null: every action. */
export async function allowedActions(db: Reader, caller: EmployeeCaller): Promise<Set<number> | null> {
  if (caller.agent.is_hq || caller.employee.hq) return null;
  const ids = parseActionIds(await actionListOf(db, caller.agent.id));
  return ids && new Set(ids);
}

/**
 * Refuses an action the caller's shop may not use, with the answer an unknown action gets
 * ("action_id: no such action"), as another shop's record answers as if it did not exist.
 * For the tickets module: adding an action to an item through the API.
 */
export async function assertActionsAllowed(db: Reader, caller: EmployeeCaller, actionIds: readonly number[]): Promise<void> {
  const allowed = await allowedActions(db, caller);
  if (allowed && actionIds.some((id) => !allowed.has(id))) throw unprocessable("action_id: no such action");
}
