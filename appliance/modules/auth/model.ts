// The auth module's contract with the UI: logins, who is calling, and the token claims.
import { z } from "zod";
import { ROLES } from "../../domain/people";

/** PINs are strings of 4 to 8 digits; leading zeros count. */
export const PIN_FORMAT = /^\d{4,8}$/;

/**
 * A PIN: a string of 4 to 8 digits, leading zeros kept. The spec's login sends an integer,
 * so a whole number is still taken, as its digits.
 */
export const Pin = z
  .preprocess(
    (v) => (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? String(v) : v),
    z.string().refine((s) => PIN_FORMAT.test(s), "must be 4 to 8 digits"),
  )
  .describe("4 to 8 digits, as a string (leading zeros kept); a whole number is accepted");

export const AgentLoginBody = z.object({ user_name: z.string().trim().min(1).max(100), password: z.string().min(1).max(200) });
export const EmployeeLoginBody = z.object({ pin: Pin });
/** A login answers the signed token (a JWT; send it as `Authorization: token <jwt>`). */
export const Token = z.string();

export const AgentInfo = z.object({ id: z.number(), name: z.string(), is_hq: z.boolean() });
export const EmployeeInfo = z.object({ id: z.number(), full_name: z.string(), role: z.enum(ROLES), hq: z.boolean() });
export const Me = z.object({ agent: AgentInfo, employee: EmployeeInfo.nullable() });
export type Me = z.infer<typeof Me>;

/** Claims of the spec (§3 Tokens) plus `kind`, `jti` and `exp` (seconds since the epoch). */
export const AgentClaims = z.object({ kind: z.literal("agent"), agent_id: z.number(), agent_name: z.string(), jti: z.string(), exp: z.number() });
export type AgentClaims = z.infer<typeof AgentClaims>;
export const EmployeeClaims = z.object({
  kind: z.literal("employee"),
  employee_id: z.number(),
  role: z.enum(ROLES),
  hq: z.boolean(),
  employee_name: z.string(),
  agent_name: z.string(),
  agent_id: z.number(),
  jti: z.string(),
  exp: z.number(),
});
export type EmployeeClaims = z.infer<typeof EmployeeClaims>;
export type Claims = AgentClaims | EmployeeClaims;
