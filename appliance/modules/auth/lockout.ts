// The password lock (QUALITY.md) as a rule over recorded failures, shared by agent passwords
// and the HQ enrolment token (issue 22).
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { authFailures } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import { tooMany } from "../../platform/errors";

/** QUALITY.md brute-force bounds, per (user name, client address) for passwords. */
export const MAX_WRONG_PASSWORDS = 10;
export const PASSWORD_WINDOW_MS = 15 * 60_000;
/** After this many wrong passwords each further try waits 1 s, doubling, until the lock. */
const PASSWORD_FREE_TRIES = 5;

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export function inWords(ms: number) {
  const [n, unit] = ms < 90_000 ? [Math.max(1, Math.ceil(ms / 1000)), "second"] : [Math.ceil(ms / 60_000), "minute"];
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

/** How long an attempt must still wait after `failures` (newest first): `free` of them cost nothing, then base × 2^(n − free). */
export function backOff(failures: string[], free: number, baseMs: number, capMs: number, nowMs: number): number {
  if (failures.length < free) return 0;
  const wait = Math.min(baseMs * 2 ** (failures.length - free), capMs);
  return Date.parse(failures[0]!) + wait - nowMs;
}

/**
 * The password lock's rule for `kind` failures of one (agent, client) pair, read inside the
 * attempt's own write: 5 free tries, then a wait of 1 s doubling, and 10 within 15 minutes
 * lock until the window passes. Throws 429 with `refusal(wait)`.
 */
export const passwordLock =
  (clock: Clock, agentId: number, client: string, refusal: (waitMs: number) => string, kind: "password" | "token" = "password") =>
  async (tx: Tx, since: string) => {
    const recent = await tx
      .select({ at: authFailures.at })
      .from(authFailures)
      .where(
        and(
          eq(authFailures.kind, kind),
          eq(authFailures.agent_id, agentId),
          eq(authFailures.client, client),
          gt(authFailures.at, since),
          isNull(authFailures.cleared_at),
        ),
      )
      .orderBy(desc(authFailures.at))
      .limit(MAX_WRONG_PASSWORDS);
    const times = recent.map((r) => r.at);
    const now = clock.now().getTime();
    const wait =
      times.length >= MAX_WRONG_PASSWORDS
        ? Date.parse(times[MAX_WRONG_PASSWORDS - 1]!) + PASSWORD_WINDOW_MS - now
        : backOff(times, PASSWORD_FREE_TRIES, 1000, PASSWORD_WINDOW_MS, now);
    if (wait > 0) throw tooMany(refusal(wait));
  };
