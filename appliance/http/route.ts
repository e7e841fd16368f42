import type { z } from "zod";

import type { AgentCaller, Caller, EmployeeCaller, Role } from "../modules/auth/caller";

// Route files declare access with these; services import them from the auth module.
export { ROLES } from "../modules/auth/caller";
export type { AgentCaller, Caller, EmployeeCaller, Role } from "../modules/auth/caller";

/**
 * Who may call a route. Every route declares one; the permission test walks them all.
 * - public: nobody needs to be logged in.
 * - agent: a shop session (agent or employee token).
 * - roles: an employee with one of these roles; `hqEmployee` also needs the employee's HQ
 *   flag (the Scheduler), `hqAgent` needs the head-quarters agent (managing agents),
 *   `hqStaff` needs either (chain-wide reference data: catalogue, places, states).
 */
export type Access = { public: true } | { agent: true } | { roles: readonly Role[]; hqEmployee?: boolean; hqAgent?: boolean; hqStaff?: boolean };

/** Who writes chain-wide reference data: an admin of the HQ agent, or an admin with the HQ flag. */
export const HQ_STAFF = { roles: ["admin"], hqStaff: true } as const;

type Method = "GET" | "POST" | "PUT" | "DELETE";

type CallerFor<A extends Access> = A extends { public: true } ? Caller : A extends { agent: true } ? AgentCaller : EmployeeCaller;

export interface RouteDef<A extends Access = Access, B = unknown, Q = unknown, P = unknown> {
  method: Method;
  /** Elysia path under /api/v1, e.g. "/agents/:id". */
  path: string;
  summary: string;
  tag: string;
  access: A;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  params?: z.ZodType<P>;
  /**
   * What the handler answers inside the envelope's `data` (the module model's response shape).
   * Documentation only: the OpenAPI document shows it; answers are not validated against it.
   */
  response?: z.ZodType;
  /**
   * Honours the Idempotency-Key header, so a client retry returns the first result: every
   * create, and every route that moves money whatever its method (pay, pay an item, refund,
   * close and reopen the drawer; issue 31).
   */
  idempotent?: boolean;
  /**
   * A query parameter that may carry the token instead of the Authorization header, for
   * documents a browser opens in a new window (spec §6: the price list uses the tokens).
   */
  queryToken?: string;
  /** The handler returns a whole Response (files, streams) instead of envelope data. */
  raw?: boolean;
  /**
   * The file types a raw route answers with (e.g. application/pdf, text/csv): documented in the
   * OpenAPI document beside the JSON envelope, so a file route is not a 200 without a schema.
   */
  files?: string[];
  /** The body is multipart/form-data (uploads); every other body must be JSON. */
  multipart?: boolean;
  /**
   * Writes HQ-owned reference data (issue 15): on a shop box enrolled with HQ it answers 409
   * "managed by head quarters" (the data arrives as HQ's signed snapshot instead).
   */
  hqOwned?: boolean;
  /**
   * Called by another box: Authorization carries a Bearer enrolment token that the handler
   * checks, not a session token (access stays public).
   */
  peerAuth?: boolean;
  /**
   * The handler checks a signature over the exact bytes of the body (a webhook: issue 35): the
   * body reaches it as text (`rawBody`) without being parsed or validated here; `body` then only
   * documents its shape.
   */
  signedBody?: boolean;
  /**
   * `client` says who is on the other end: the peer's IP address, or "local" when the app is
   * called without a server (tests). Lock-outs are kept per client.
   */
  handler: (c: { caller: CallerFor<A>; body: B; query: Q; params: P; request: Request; client: string; rawBody: string }) => unknown | Promise<unknown>;
}

/** Declares a route; generic inference keeps handler arguments typed by the schemas. */
export function route<A extends Access, B = undefined, Q = undefined, P = undefined>(def: RouteDef<A, B, Q, P>): RouteDef {
  return def as unknown as RouteDef;
}
