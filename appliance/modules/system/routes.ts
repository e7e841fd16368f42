import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { jsonResponse } from "../../http/envelope";
import { type RouteDef, route } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";
import { Pin } from "../auth/routes";
import type { AuthService } from "../auth/service";

export function systemRoutes(deps: { db: Db; auth: AuthService; version: string; openapi: () => unknown }): RouteDef[] {
  return [
    route({
      method: "GET",
      path: "/health",
      tag: "system",
      summary: "Ready check: version, database reachable, whether first-run setup is needed",
      access: { public: true },
      handler: async () => {
        await deps.db.run(sql`SELECT 1`);
        return { version: deps.version, database: "ok", setup_required: await deps.auth.setupRequired() };
      },
    }),
    route({
      method: "POST",
      path: "/setup",
      tag: "system",
      summary: "First-run setup on an empty box: creates the HQ agent and its first admin",
      access: { public: true },
      body: z.object({
        agent_name: z.string().trim().min(1).max(100),
        user_name: z.string().trim().min(1).max(100),
        password: z.string().min(8).max(200),
        full_name: z.string().trim().min(1).max(100),
        pin: Pin,
      }),
      handler: async ({ body }) => (await deps.auth.createFirstAdmin(body), true),
    }),
    route({
      method: "GET",
      path: "/openapi.json",
      tag: "system",
      summary: "This document",
      access: { public: true },
      raw: true,
      handler: () => jsonResponse(200, deps.openapi(), SECURITY_HEADERS),
    }),
  ];
}
