import { z } from "zod";
import { route } from "../../http/route";
import { IdParams, text } from "../../domain/schemas";
import { AddressBody } from "../places/routes";
import type { AgentService } from "./service";


const AgentBody = z.object({
  name: text(100).min(1),
  type: text(30).optional(),
  user_name: text(100).min(1),
  landline: text(30).optional(),
  mobile: text(30).optional(),
  commission: z.number().int().min(0).max(100).optional(),
  contact_person: text(100).optional(),
  email_address: z.union([z.literal(""), z.email().max(200)]).optional(),
  queens: z.boolean().optional(),
  detail: text(1000).nullish(),
  can_see_action: text(1000).nullish(),
  enabled: z.boolean().optional(),
  address: AddressBody.nullish(),
});

const admin = { roles: ["admin"] } as const;

export function agentRoutes(agents: AgentService) {
  return [
    route({ method: "GET", path: "/agents/", tag: "agents", summary: "Agents this caller may see", access: admin, handler: ({ caller }) => agents.list(caller) }),
    route({
      method: "GET",
      path: "/agents/:id",
      tag: "agents",
      summary: "One agent with its address",
      access: admin,
      params: IdParams,
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
      handler: ({ caller, params, body }) => agents.update(caller, params.id, body),
    }),
    route({
      method: "DELETE",
      path: "/agents/:id",
      tag: "agents",
      summary: "Removes an agent that has no records (head-quarters only)",
      access: { roles: ["admin"], hqAgent: true },
      params: IdParams,
      handler: ({ caller, params }) => agents.remove(caller, params.id),
    }),
    route({
      method: "PUT",
      path: "/agents/password/:id",
      tag: "agents",
      summary: "Sets an agent's password (and e-mail address)",
      access: admin,
      params: IdParams,
      body: z.object({ email_address: z.union([z.literal(""), z.email().max(200)]).optional(), password: z.string().min(8).max(200) }),
      handler: ({ caller, params, body }) => agents.setPassword(caller, params.id, body),
    }),
  ];
}
