import { currentToken, setAgentToken, setEmployeeToken } from "./session";
import { toast } from "../components/toast";
import { trackLoading } from "../components/loading";
import { boxAnswered, boxDidNotAnswer } from "./connection";
import { RELEASE_HEADER, noteServedBuild } from "./release";

/** Spec §7: base path, 30 s timeout, JSON, no caching, arrays as repeated keys. */
export const BASE = "/api/v1";
export const TIMEOUT_MS = 30_000;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type Query = Record<string, string | number | boolean | undefined | null | (string | number)[]>;

export function queryString(q?: Query): string {
  if (!q) return "";
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined || v === null) continue;
    for (const one of Array.isArray(v) ? v : [v]) p.append(k, String(one));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

/**
 * Spec §6: a 401 logs out the agent or the employee depending on whether the message starts
 * with "Agent" or "Employee"; "Token" logs out both.
 */
export function handleUnauthorized(message: string, sent: string | null) {
  // An answer to a request sent with a token that has since been replaced (a new PIN
  // went in meanwhile) must not log the new session out.
  if (sent !== currentToken()) return;
  if (message.startsWith("Employee")) setEmployeeToken(null);
  else setAgentToken(null);
}

export interface CallOptions {
  query?: Query;
  body?: unknown;
  /** Don't show the red toast on failure (the caller handles the message). */
  quiet?: boolean;
  headers?: Record<string, string>;
}

/**
 * A fresh Idempotency-Key. crypto.randomUUID exists only in secure contexts, and the tablets
 * open the box over plain http://192.168…, so the fallback builds a version-4 UUID from
 * getRandomValues (available everywhere).
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Calls the API and unwraps the envelope; failures toast the server's message and throw.
 * Every call but a GET carries an Idempotency-Key, one per call (a caller may pass its own in
 * headers, as "idempotency-key", to span several calls), whatever its method: a create the box
 * already made, or a payment, refund or drawer close/reopen it already took (PUT paidFor
 * included, issue 31), answers its first result instead of happening twice. The key is made
 * once per call, before sending, so anything re-sending this call's request sends the same key.
 * Routes that are not idempotent ignore the header.
 */
export async function api<T>(method: string, path: string, opts: CallOptions = {}): Promise<T> {
  const idempotency: Record<string, string> = method.toUpperCase() !== "GET" ? { "idempotency-key": newIdempotencyKey() } : {};
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), TIMEOUT_MS);
  const token = currentToken();
  const done = trackLoading();
  try {
    let res: Response;
    try {
      res = await fetch(BASE + path + queryString(opts.query), {
        method,
        signal: ctrl.signal,
        cache: "no-store",
        headers: {
          accept: "application/json",
          ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
          ...(token ? { authorization: `token ${token}` } : {}),
          ...idempotency,
          ...opts.headers,
        },
        body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      });
    } catch {
      if (!ctrl.signal.aborted) boxDidNotAnswer();
      throw new ApiError(0, ctrl.signal.aborted ? "The box did not answer in time; try again" : "Cannot reach the box; check the Wi-Fi");
    }
    boxAnswered();
    noteServedBuild(res.headers.get(RELEASE_HEADER));
    const json = (await res.json().catch(() => null)) as { success?: boolean; data?: T; message?: string } | null;
    if (!res.ok || !json?.success) {
      const message = json?.message ?? `Request failed (${res.status})`;
      if (res.status === 401) handleUnauthorized(message, token);
      throw new ApiError(res.status, message);
    }
    return json.data as T;
  } catch (e) {
    if (!opts.quiet && e instanceof ApiError && e.status !== 401) toast(e.message, "danger");
    throw e;
  } finally {
    clearTimeout(timer);
    done();
  }
}

/**
 * A list that fails says so (issues 25, 31): a failed request throws its ApiError
 * (quietly: the screen shows "Could not load" with Retry in place, see components/LoadFailed),
 * so "the search failed" never reads as "nothing found". A successful answer that is not a
 * list still decodes to an empty one (spec §7).
 */
export async function fetchList<T>(path: string, query?: Query): Promise<T[]> {
  const data = await api<T[]>("GET", path, { query, quiet: true });
  return Array.isArray(data) ? data : [];
}

/** The message a failed load shows. */
export const loadFailure = (e: unknown) => (e instanceof ApiError ? e.message : "Something went wrong");
