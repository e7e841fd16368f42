import { createHmac, timingSafeEqual } from "node:crypto";
import type { Claims } from "./model";

const b64 = (s: string | Buffer) => Buffer.from(s).toString("base64url");
const HEADER = b64(JSON.stringify({ alg: "HS256", typ: "JWT" }));

export function signToken(secret: string, claims: Claims): string {
  const body = `${HEADER}.${b64(JSON.stringify(claims))}`;
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}

export type VerifyResult = { ok: true; claims: Claims } | { ok: false; reason: "malformed" | "signature" | "expired"; claims?: Claims };

/** HS256 only: any other `alg` (including "none") is refused before the signature is checked. */
export function verifyToken(secret: string, token: string, nowSeconds: number): VerifyResult {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, reason: "malformed" };
  const [h, p, s] = parts as [string, string, string];
  let header: unknown;
  let claims: Claims;
  try {
    header = JSON.parse(Buffer.from(h, "base64url").toString());
    claims = JSON.parse(Buffer.from(p, "base64url").toString());
  } catch {
    return { ok: false, reason: "malformed" };
  }
  if (typeof header !== "object" || header === null || (header as { alg?: unknown }).alg !== "HS256") return { ok: false, reason: "malformed" };
  const expected = createHmac("sha256", secret).update(`${h}.${p}`).digest();
  const given = Buffer.from(s, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "signature" };
  if (typeof claims !== "object" || claims === null || typeof claims.jti !== "string" || typeof claims.exp !== "number") {
    return { ok: false, reason: "malformed" };
  }
  if (claims.exp <= nowSeconds) return { ok: false, reason: "expired", claims };
  return { ok: true, claims };
}
