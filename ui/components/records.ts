import { ApiError, api } from "../lib/api";
import { confirmDialog } from "./dialog";
import { toast } from "./toast";

/**
 * Spec §8's failure wording for detail screens, in one place: a failed create shows the
 * server's message; a failed update or delete 'Something went wrong' — except a refusal the
 * user can act on (403, 409, 422: a PIN in use, "Agent has employees…"), whose message says
 * what to do instead.
 */
export function failureMessage(e: unknown, isNew = false): string {
  return e instanceof ApiError && e.message && (isNew || e.status === 403 || e.status === 409 || e.status === 422) ? e.message : "Something went wrong";
}

/**
 * Spec §5: deleting with id 0 makes no call, and every delete asks first. Returns whether the
 * record was deleted. `serverMessage`: the spec shows the server's message for employees and
 * customers whatever the failure.
 */
export async function deleteRecord(o: {
  path: string;
  id: number;
  okText: string;
  confirm?: { title?: string; message?: string };
  serverMessage?: boolean;
}): Promise<boolean> {
  if (!o.id) return false;
  if (!(await confirmDialog(o.confirm ?? {}))) return false;
  try {
    await api("DELETE", `${o.path}${o.id}`, { quiet: true });
    toast(o.okText);
    return true;
  } catch (e) {
    toast(o.serverMessage && e instanceof ApiError && e.message ? e.message : failureMessage(e), "danger");
    return false;
  }
}
