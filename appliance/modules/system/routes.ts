import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { jsonResponse } from "../../http/envelope";
import { type RouteDef, route } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";
import { Pin } from "../auth/routes";
import type { AuthService } from "../auth/service";
import type { SetupGate } from "../auth/setupCode";

export function systemRoutes(deps: { db: Db; auth: AuthService; setup: SetupGate; version: string; openapi: () => unknown }): RouteDef[] {
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
      summary: "First-run setup on an empty box: creates the HQ agent and its first admin; needs the one-time code the box printed at start",
      access: { public: true },
      body: z.object({
        setup_code: z.string().trim().min(1).max(64).describe("The one-time code from the box's console or <data dir>/setup-code"),
        agent_name: z.string().trim().min(1).max(100),
        user_name: z.string().trim().min(1).max(100),
        password: z.string().min(8).max(200),
        full_name: z.string().trim().min(1).max(100),
        pin: Pin,
      }),
      handler: async ({ body, client }) => {
        deps.setup.check(body.setup_code, client);
        const { setup_code, ...admin } = body;
        await deps.auth.createFirstAdmin(admin);
        deps.setup.done();
        return true;
      },
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
