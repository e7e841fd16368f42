import { z } from "zod";
import { route } from "../../http/route";
import type { AuthService } from "./service";

export const Pin = z.coerce.number().int().min(0).max(99_999_999);

export function authRoutes(auth: AuthService) {
  return [
    route({
      method: "POST",
      path: "/login/agent",
      tag: "auth",
      summary: "Agent (shop) login with user name and password; returns the agent token",
      access: { public: true },
      body: z.object({ user_name: z.string().trim().min(1).max(100), password: z.string().min(1).max(200) }),
      handler: ({ body }) => auth.loginAgent(body.user_name, body.password),
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
