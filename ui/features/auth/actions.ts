import { api, ApiError } from "../../lib/api";
import { agentToken, employeeToken, setAgentToken, setEmployeeToken } from "../../lib/session";

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

/** The PIN goes as the digits typed: "0123" is not "123". */
export async function loginEmployee(pin: string): Promise<true | string> {
  try {
    setEmployeeToken(await api<string>("POST", "/login/employee", { body: { pin }, quiet: true }));
    return true;
  } catch (e) {
    return e instanceof ApiError && e.status === 429 ? e.message : "Incorrect Pin";
  }
}

/**
 * Logouts end the session on the device at once, whatever the box answers (it may be
 * unreachable), and tell the box in the background so it revokes the token.
 */
function tellBox(path: string, token: string | null) {
  if (token) api("GET", path, { quiet: true, headers: { authorization: `token ${token}` } }).catch(() => {});
}

export function logoutEmployee() {
  const token = employeeToken.value;
  setEmployeeToken(null);
  tellBox("/logout/employee", token);
}

/** Logs the shop out (and with it the employee). */
export function logoutAgent() {
  const token = agentToken.value;
  setAgentToken(null);
  tellBox("/logout/agent", token);
}
