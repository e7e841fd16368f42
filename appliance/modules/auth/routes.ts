import { z } from "zod";
import { route } from "../../http/route";
import { AgentLoginBody, EmployeeLoginBody, Me, Token } from "./model";
import type { AuthService } from "./service";

export function authRoutes(auth: AuthService) {
  return [
    route({
      method: "POST",
      path: "/login/agent",
      tag: "auth",
      summary: "Agent (shop) login with user name and password; returns the agent token",
      access: { public: true },
      body: AgentLoginBody,
      response: Token,
      handler: ({ body, client }) => auth.loginAgent(body.user_name, body.password, client),
    }),
    route({
      method: "GET",
      path: "/logout/agent",
      tag: "auth",
      summary: "Ends the agent session and every employee session opened in it",
      access: { agent: true },
      response: z.literal(true),
      handler: async ({ caller }) => (await auth.logoutAgent(caller), true),
    }),
    route({
      method: "POST",
      path: "/login/employee",
      tag: "auth",
      summary: "Employee login with a PIN inside the agent session; returns the employee token",
      access: { agent: true },
      body: EmployeeLoginBody,
      response: Token,
      handler: ({ caller, body }) => auth.loginEmployee(caller, body.pin),
    }),
    route({
      method: "GET",
      path: "/logout/employee",
      tag: "auth",
      summary: "Ends the employee session; the agent session stays",
      access: { roles: ["admin", "manager", "employee", "driver"] },
      response: z.literal(true),
      handler: async ({ caller }) => (await auth.logoutEmployee(caller), true),
    }),
    route({
      method: "PUT",
      path: "/login/employee/unlock",
      tag: "auth",
      summary: "Lifts the PIN lock of this agent after too many wrong PINs",
      access: { roles: ["admin", "manager"] },
      response: z.literal(true),
      handler: async ({ caller }) => (await auth.unlockPins(caller), true),
    }),
    route({
      method: "GET",
      path: "/me",
      tag: "auth",
      summary: "Who is logged in: the agent and, after a PIN, the employee",
      access: { agent: true },
      response: Me,
      handler: ({ caller }) => ({ agent: caller.agent, employee: caller.kind === "employee" ? caller.employee : null }),
    }),
  ];
}
