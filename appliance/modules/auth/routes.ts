import { z } from "zod";
import { route } from "../../http/route";
import { type AuthService, PIN_FORMAT } from "./service";

/**
 * A PIN: a string of 4 to 8 digits, leading zeros kept. The spec's login sends an integer,
 * so a whole number is still taken, as its digits.
 */
export const Pin = z
  .preprocess((v) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? String(v) : v), z.string().refine((s) => PIN_FORMAT.test(s), "must be 4 to 8 digits"))
  .describe("4 to 8 digits, as a string (leading zeros kept); a whole number is accepted");

export function authRoutes(auth: AuthService) {
  return [
    route({
      method: "POST",
      path: "/login/agent",
      tag: "auth",
      summary: "Agent (shop) login with user name and password; returns the agent token",
      access: { public: true },
      body: z.object({ user_name: z.string().trim().min(1).max(100), password: z.string().min(1).max(200) }),
      handler: ({ body, client }) => auth.loginAgent(body.user_name, body.password, client),
    }),
    route({
      method: "GET",
      path: "/logout/agent",
      tag: "auth",
      summary: "Ends the agent session and every employee session opened in it",
      access: { agent: true },
      handler: async ({ caller }) => (await auth.logoutAgent(caller), true),
    }),
    route({
      method: "POST",
      path: "/login/employee",
      tag: "auth",
      summary: "Employee login with a PIN inside the agent session; returns the employee token",
      access: { agent: true },
      body: z.object({ pin: Pin }),
      handler: ({ caller, body }) => auth.loginEmployee(caller, body.pin),
    }),
    route({
      method: "GET",
      path: "/logout/employee",
      tag: "auth",
      summary: "Ends the employee session; the agent session stays",
      access: { roles: ["admin", "manager", "employee", "driver"] },
      handler: async ({ caller }) => (await auth.logoutEmployee(caller), true),
    }),
    route({
      method: "PUT",
      path: "/login/employee/unlock",
      tag: "auth",
      summary: "Lifts the PIN lock of this agent after too many wrong PINs",
      access: { roles: ["admin", "manager"] },
      handler: async ({ caller }) => (await auth.unlockPins(caller), true),
    }),
    route({
      method: "GET",
      path: "/me",
      tag: "auth",
      summary: "Who is logged in: the agent and, after a PIN, the employee",
      access: { agent: true },
      handler: ({ caller }) => ({ agent: caller.agent, employee: caller.kind === "employee" ? caller.employee : null }),
    }),
  ];
}
