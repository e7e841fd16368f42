import { Elysia } from "elysia";
import type { Db } from "../../db/client";
import type { AuthService } from "../modules/auth/service";
import type { Clock } from "../platform/clock";
import { fail, jsonResponse, ok } from "./envelope";
import { AppError, conflict, unsupportedMedia } from "../platform/errors";
import { statusOf, storageFailure } from "./errors";
import { authorize } from "./guard";
import { requestFingerprint, withIdempotency } from "./idempotency";
import type { Caller, RouteDef } from "./route";
import { SECURITY_HEADERS } from "./security";
import { uiBuildOf, uiResponder } from "./static";
import { parsePart } from "./validation";

export const API = "/api/v1";
/** What a write of HQ-owned data answers on a shop box HQ manages (409). */
export const MANAGED_BY_HQ = "managed by head quarters";

export interface AppDeps {
  db: Db;
  clock: Clock;
  auth: AuthService;
  routes: readonly RouteDef[];
  /** The built UI (ui/dist); absent in API-only tests. */
  uiDir?: string;
  log?: (msg: string, err?: unknown) => void;
  /** True on a shop box enrolled with HQ: routes marked `hqOwned` refuse (modules/reference). */
  managed?: () => boolean;
  /** Issue 22: answers 421 to a Host that is not the box's (http/hostGuard.ts); absent, any Host. */
  hostGuard?: (request: Request) => Response | undefined;
}

/** Repeated keys become arrays (spec §7: arrays as repeated keys without brackets). */
function queryObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

const callerKey = (c: Caller) => (c.kind === "none" ? "anon" : c.jti);

/**
 * Bodies are JSON, uploads multipart, nothing else: a form-encoded POST is what a web page on
 * another site can send without asking, so it must never log in or claim a fresh box.
 */
function checkContentType(def: RouteDef, request: Request): void {
  if (request.method === "GET" || request.method === "HEAD") return;
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!type) return; // no body at all; the body schema (if any) then says what is missing
  const wanted = def.multipart ? "multipart/form-data" : "application/json";
  if (type !== wanted)
    throw unsupportedMedia(def.multipart ? "Send the file as multipart/form-data" : "Send the body as JSON (Content-Type: application/json)");
}
/** SQLite refused a change because other rows still refer to the row (drizzle wraps libSQL's error). */
function isForeignKeyFailure(error: unknown): boolean {
  for (let e = error as { cause?: unknown; extendedCode?: string } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.extendedCode === "SQLITE_CONSTRAINT_FOREIGNKEY") return true;
  }
  return false;
}

export function createApp(deps: AppDeps) {
  const log = deps.log ?? ((m, e) => console.error(m, e));
  const ui = deps.uiDir ? uiResponder(deps.uiDir) : null;
  // Which UI build this box serves, on every API answer: an open tablet reloads for an upgrade (ui/lib/release.ts).
  const build = uiBuildOf(deps.uiDir);
  const headers: Record<string, string> = build ? { ...SECURITY_HEADERS, "x-ironbox-ui": build } : SECURITY_HEADERS;
  const guard = deps.hostGuard;
  const app = new Elysia()
    .onRequest(({ request }) => guard?.(request))
    .onAfterHandle({ as: "global" }, ({ set }) => {
      Object.assign(set.headers, headers);
    })
    .onError({ as: "global" }, ({ code, error, request, set }) => {
      Object.assign(set.headers, headers);
      const path = new URL(request.url).pathname;
      if (code === "NOT_FOUND") {
        const page = (request.method === "GET" || request.method === "HEAD") && !path.startsWith("/api/") ? ui?.(path) : null;
        if (page) return page;
        return jsonResponse(404, fail(`No such API route: ${request.method} ${path}`), headers);
      }
      if (error instanceof AppError) return jsonResponse(statusOf(error), fail(error.message), headers);
      if (code === "PARSE") return jsonResponse(400, fail("The request body is not valid JSON"), headers);
      if (code === "VALIDATION") return jsonResponse(422, fail("Invalid request"), headers);
      if (request.method === "DELETE" && isForeignKeyFailure(error)) {
        // Each service refuses deleting a record with history with its own reason; this is the
        // net for history it did not foresee: still a 409, never a 500 (logged to be given a reason).
        log(`DELETE refused by a foreign key on ${path}`, error);
        return jsonResponse(409, fail("This record has history (other records refer to it); it cannot be removed"), headers);
      }
      const storage = storageFailure(error);
      if (storage) {
        // Logged without the failed statement (it may carry a customer's details).
        log(`${request.method} ${path}: ${storage.status === 507 ? "disk full" : "disk I/O error"}`);
        return jsonResponse(storage.status, fail(storage.message), headers);
      }
      log(`Unhandled error on ${request.method} ${path}`, error);
      return jsonResponse(500, fail("Something went wrong on the box; the request was not completed"), headers);
    });

  for (const def of deps.routes) {
    app.route(
      def.method,
      API + def.path,
      async ({ request, params, body, server }) => {
        const url = new URL(request.url);
        const client = server?.requestIP(request)?.address ?? "local";
        const fromQuery = def.queryToken ? url.searchParams.get(def.queryToken) : null;
        const caller: Caller = def.peerAuth
          ? { kind: "none" }
          : await deps.auth.authenticate(request.headers.get("authorization") ?? (fromQuery ? `token ${fromQuery}` : null));
        authorize(def.access, caller, def.method !== "GET");
        if (def.hqOwned && deps.managed?.()) throw conflict(MANAGED_BY_HQ);
        if (def.body) checkContentType(def, request);
        // A signed body is read as the bytes that were signed; the handler checks and parses it.
        const rawBody = def.signedBody ? (typeof body === "string" ? body : "") : "";
        const input = {
          caller,
          params: parsePart(def.params, params, "params"),
          query: parsePart(def.query, queryObject(url), "query"),
          // A body of JSON null (or any non-object) is not "no body": the schema refuses it.
          body: def.signedBody ? undefined : parsePart(def.body, body === undefined || body === "" ? {} : body, "body"),
          request,
          client,
          rawBody,
        };
        const run = async () => ({ status: 200, body: def.raw ? await def.handler(input as never) : ok(await def.handler(input as never)) });
        if (def.raw) return (await run()).body as Response;
        // The scope is the whole request (method, path, query, body) and the caller: one key with
        // another amount is a 409, never the first answer passed off as this one's.
        const key = def.idempotent ? request.headers.get("idempotency-key") : null;
        const scope = key ? `${def.method} ${url.pathname} ${callerKey(caller)} ${requestFingerprint(url, body)}` : "";
        const result = def.idempotent ? await withIdempotency(deps.db, key, scope, deps.clock.now(), run) : await run();
        return jsonResponse(result.status, result.body, headers);
      },
      def.signedBody ? { parse: "text" } : undefined,
    );
  }

  return app;
}

export type App = ReturnType<typeof createApp>;
