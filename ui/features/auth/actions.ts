import { api, ApiError } from "../../lib/api";
import { setAgentToken, setEmployeeToken } from "../../lib/session";

/** Spec §8: a failed or thrown agent login gives false; the screen says 'Wrong username/password'. */
export async function loginAgent(user_name: string, password: string): Promise<true | string> {
  try {
    setAgentToken(await api<string>("POST", "/login/agent", { body: { user_name, password }, quiet: true }));
    return true;
  } catch (e) {
    // A lock after too many attempts says so; anything else is the spec's message.
    return e instanceof ApiError && e.status === 429 ? e.message : "Wrong username/password";
  }
}

export async function loginEmployee(pin: number): Promise<true | string> {
  try {
    setEmployeeToken(await api<string>("POST", "/login/employee", { body: { pin }, quiet: true }));
    return true;
  } catch (e) {
    return e instanceof ApiError && e.status === 429 ? e.message : "Incorrect Pin";
  }
}

/** The session ends on the device whatever the box answers (it may be unreachable). */
export async function logoutEmployee() {
  await api("GET", "/logout/employee", { quiet: true }).catch(() => {});
  setEmployeeToken(null);
}

export async function logoutAgent() {
  await api("GET", "/logout/agent", { quiet: true }).catch(() => {});
  setAgentToken(null);
}
