import { z } from "zod";
import { route } from "../../http/route";
import { ArchivedQuery, IdParams } from "../../domain/schemas";
import { AgentBody, AgentDetail, AgentListRow, PasswordBody } from "./model";
import type { AgentService } from "./service";

const admin = { roles: ["admin"] } as const;

export function agentRoutes(agents: AgentService) {
  return [
    route({
      method: "GET",
      path: "/agents/",
      tag: "agents",
      summary: "Agents this caller may see; ?archived=true lists the archived ones instead",
      access: admin,
      query: ArchivedQuery,
      response: z.array(AgentListRow),
      handler: ({ caller, query }) => agents.list(caller, query.archived === "true"),
    }),
    route({
      method: "GET",
      path: "/agents/:id",
      tag: "agents",
      summary: "One agent with its address",
      access: admin,
      params: IdParams,
      response: AgentDetail,
      handler: ({ caller, params }) => agents.get(caller, params.id),
    }),
    route({
      method: "POST",
      path: "/agents/",
      tag: "agents",
      summary: "Creates an agent (head-quarters only); the password is set separately",
      access: { roles: ["admin"], hqAgent: true },
      body: AgentBody,
      idempotent: true,
      response: AgentDetail,
      handler: ({ caller, body }) => agents.create(caller, body),
    }),
    route({
      method: "PUT",
      path: "/agents/:id",
      tag: "agents",
      summary: "Updates an agent",
      access: admin,
      params: IdParams,
      body: AgentBody.partial(),
      response: AgentDetail,
      handler: ({ caller, params, body }) => agents.update(caller, params.id, body),
    }),
    route({
      method: "DELETE",
      path: "/agents/:id",
      tag: "agents",
      summary: "Removes an agent without records; one with records is archived (disabled, hidden, logged out) (head-quarters only)",
      access: { roles: ["admin"], hqAgent: true },
      params: IdParams,
      response: z.literal(true),
      handler: ({ caller, params }) => agents.remove(caller, params.id),
    }),
    route({
      method: "PUT",
      path: "/agents/restore/:id",
      tag: "agents",
      summary: "Restores an archived agent, enabled again (head-quarters only)",
      access: { roles: ["admin"], hqAgent: true },
      params: IdParams,
      response: AgentDetail,
      handler: ({ caller, params }) => agents.restore(caller, params.id),
    }),
    route({
      method: "PUT",
      path: "/agents/password/:id",
      tag: "agents",
      summary: "Sets an agent's password (and e-mail address)",
      access: admin,
      params: IdParams,
      body: PasswordBody,
      response: z.literal(true),
      handler: ({ caller, params, body }) => agents.setPassword(caller, params.id, body),
    }),
  ];
}
