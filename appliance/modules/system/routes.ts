import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { shopTimeZone } from "../../domain/dates";
import type { BoxMode } from "../../domain/sites";
import { jsonResponse } from "../../http/envelope";
import { type RouteDef, route } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";
import type { AuthService } from "../auth/service";
import type { SetupGate } from "../auth/setupCode";
import type { LinkHealth } from "../hqlink/model";
import { Health, SetupBody } from "./model";

const LINK_OFF: LinkHealth = { state: "off", lag_seconds: null, last_shipped_at: null, last_error: null, warn_after_seconds: 300 };

export function systemRoutes(deps: {
  db: Db;
  auth: AuthService;
  setup: SetupGate;
  version: string;
  openapi: () => unknown;
  /** The HQ link's state (modules/hqlink); off when the box has no link. */
  link?: () => LinkHealth;
  /** IRONBOX_MODE (issue 15): the UI offers the Sites screen on head quarters' box. */
  mode?: BoxMode;
}): RouteDef[] {
  return [
    route({
      method: "GET",
      path: "/health",
      tag: "system",
      summary: "Ready check: version, database reachable, whether first-run setup is needed",
      access: { public: true },
      response: Health,
      handler: async () => {
        await deps.db.run(sql`SELECT 1`);
        return {
          version: deps.version,
          database: "ok" as const,
          setup_required: await deps.auth.setupRequired(),
          link: deps.link?.() ?? LINK_OFF,
          mode: deps.mode ?? "shop",
          time_zone: shopTimeZone(),
        };
      },
    }),
    route({
      method: "POST",
      path: "/setup",
      tag: "system",
      summary: "First-run setup on an empty box: creates the HQ agent and its first admin; needs the one-time code the box printed at start",
      access: { public: true },
      body: SetupBody,
      response: z.literal(true),
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
