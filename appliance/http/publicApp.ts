import { Elysia } from "elysia";
import type { Db } from "../../db/client";
import type { Clock } from "../platform/clock";
import { AppError } from "../platform/errors";
import { fail, jsonResponse, ok } from "./envelope";
import { statusOf, storageFailure } from "./errors";
import { requestFingerprint, withIdempotency } from "./idempotency";
import type { RouteDef } from "./route";
import { SECURITY_HEADERS_PUBLIC } from "./security";
import { parsePart } from "./validation";

/** Issue 35: the public face's API prefix, apart from the staff API's /api/v1. */
export const PUBLIC_API = "/public/v1";
export const PUBLIC_NOT_FOUND = "Not found";

/**
 * What a log line may say of a public path: a status token (in /s/… or /status/…) is a live
 * link to a customer's ticket, so it never reaches a log.
 */
export const redactPath = (path: string) => path.replace(/\/(s|status)\/[^/?#]*/g, "/$1/[token]");

/** A form's fields (parsed by Elysia) as text again; "" for anything but a form of plain fields. */
function formText(request: Request, body: unknown): string {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded" || !body || typeof body !== "object" || Array.isArray(body)) return "";
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(body)) for (const one of Array.isArray(v) ? v : [v]) if (typeof one === "string") out.append(k, one);
  return out.toString();
}

/**
 * The public face's own small Elysia instance (issue 35): it mounts only the routes it is
 * given (the public module's), so no staff route, page or file is reachable through it; it
 * reads no Authorization header (every caller is nobody); it answers with a strict CSP; and
 * it keeps the box's Host check. Served on its own port (IRONBOX_PUBLIC_PORT, main.ts).
 */
export function createPublicApp(deps: {
  db: Db;
  clock: Clock;
  api: readonly RouteDef[];
  pages: readonly RouteDef[];
  hostGuard?: (request: Request) => Response | undefined;
  log?: (msg: string, err?: unknown) => void;
}) {
  const log = deps.log ?? ((m, e) => console.error(m, e));
  const headers = SECURITY_HEADERS_PUBLIC;
  const guard = deps.hostGuard;
  const app = new Elysia()
    .onRequest(({ request }) => guard?.(request))
    .onAfterHandle({ as: "global" }, ({ set }) => {
      Object.assign(set.headers, headers);
    })
    .onError({ as: "global" }, ({ code, error, request }) => {
      const path = redactPath(new URL(request.url).pathname);
      if (code === "NOT_FOUND") return jsonResponse(404, fail(PUBLIC_NOT_FOUND), headers);
      if (error instanceof AppError) return jsonResponse(statusOf(error), fail(error.message), headers);
      if (code === "PARSE") return jsonResponse(400, fail("The request body is not valid JSON"), headers);
      if (code === "VALIDATION") return jsonResponse(422, fail("Invalid request"), headers);
      const storage = storageFailure(error);
      if (storage) {
        log(`public ${request.method} ${path}: ${storage.status === 507 ? "disk full" : "disk I/O error"}`);
        return jsonResponse(storage.status, fail(storage.message), headers);
      }
      // The error itself is not logged: its message may quote the statement and its values.
      log(`public: unhandled error on ${request.method} ${path}: ${(error as Error)?.name ?? "error"}`);
      return jsonResponse(500, fail("Something went wrong; please try again later"), headers);
    });

  const mount = (def: RouteDef, at: string) => {
    if (!("public" in def.access)) throw new Error(`public face: ${def.method} ${def.path} is not a public route`);
    app.route(def.method, at, async ({ request, params, body, server }) => {
      const url = new URL(request.url);
      const client = server?.requestIP(request)?.address ?? "local";
      if (def.body && request.method !== "GET") {
        const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
        if (type && type !== "application/json") return jsonResponse(415, fail("Send the body as JSON (Content-Type: application/json)"), headers);
      }
      const query: Record<string, string | string[]> = {};
      for (const [k, v] of url.searchParams) {
        const prev = query[k];
        query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
      }
      const input = {
        caller: { kind: "none" as const },
        params: parsePart(def.params, params, "params"),
        query: parsePart(def.query, query, "query"),
        body: parsePart(def.body, body === undefined || body === "" ? {} : body, "body"),
        request,
        client,
        // A raw page's form (the booking page: application/x-www-form-urlencoded, parsed by
        // Elysia) reaches it as text, to be read with URLSearchParams.
        rawBody: def.body ? "" : formText(request, body),
      };
      if (def.raw) return (await def.handler(input as never)) as Response;
      const run = async () => ({ status: 200, body: ok(await def.handler(input as never)) });
      const key = def.idempotent ? request.headers.get("idempotency-key") : null;
      const scope = key ? `PUBLIC ${def.method} ${url.pathname} ${client} ${requestFingerprint(url, body)}` : "";
      const result = key ? await withIdempotency(deps.db, key, scope, deps.clock.now(), run) : await run();
      return jsonResponse(result.status, result.body, headers);
    });
  };
  for (const def of deps.api) mount(def, PUBLIC_API + def.path);
  for (const def of deps.pages) mount(def, def.path);
  return app;
}
export type PublicApp = ReturnType<typeof createPublicApp>;
