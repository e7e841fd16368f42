import { createHash } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { idempotencyKeys } from "../../db/schema";
import { badRequest, conflict } from "../platform/errors";

const IN_PROGRESS = 0;
/** A claim a stopped box left behind: its work may or may not have committed (see pruneIdempotencyKeys). */
const INTERRUPTED = -1;
/** What a retry of such a request is told: replaying nothing and redoing nothing is the only safe answer. */
export const INTERRUPTED_MESSAGE = "The box restarted while this request was being done: check whether it went through before trying again";
const KEEP_MS = 24 * 3600_000;

/**
 * A create with an Idempotency-Key runs once: the key is claimed before the work, the
 * result stored after it, and a retry gets the stored result. A failed attempt releases the
 * key so the client can try again.
 */
export async function withIdempotency(
  db: Db,
  key: string | null,
  scope: string,
  now: Date,
  run: () => Promise<{ status: number; body: unknown }>,
): Promise<{ status: number; body: unknown; replayed: boolean }> {
  if (!key) return { ...(await run()), replayed: false };
  if (key.length > 200) throw badRequest("Idempotency-Key is too long (200 characters at most)");
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ key, scope, status: IN_PROGRESS, body: "", created_at: now.toISOString() })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length === 0) {
    const prior = await db.query.idempotencyKeys.findFirst({ where: eq(idempotencyKeys.key, key) });
    if (!prior || prior.scope !== scope) throw conflict("Idempotency-Key was already used for another request");
    if (prior.status === IN_PROGRESS) throw conflict("A request with this Idempotency-Key is still in progress; retry shortly");
    if (prior.status === INTERRUPTED) throw conflict(INTERRUPTED_MESSAGE);
    return { status: prior.status, body: JSON.parse(prior.body), replayed: true };
  }
  try {
    const result = await run();
    await db
      .update(idempotencyKeys)
      .set({ status: result.status, body: JSON.stringify(result.body) })
      .where(eq(idempotencyKeys.key, key));
    return { ...result, replayed: false };
  } catch (e) {
    await db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    throw e;
  }
}

/**
 * What a request asks for beyond its method, path and caller: its query (in any order) and its
 * body, hashed (a body may be a 16 MB signature). The same key with another amount is then
 * another request (409), while an exact retry replays the first answer (issue 31). An upload's
 * file counts by name, type and size.
 */
export function requestFingerprint(url: URL, body: unknown): string {
  const query = [...url.searchParams].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  const json = JSON.stringify([query, body ?? null], (_k, v) =>
    v instanceof Blob ? { blob: v.size, type: v.type, name: v instanceof File ? v.name : null } : v,
  );
  return createHash("sha256").update(json).digest("base64url");
}

/**
 * At boot: keys older than a day are dropped (a retry that late is a new request), and claims
 * still "in progress" are marked interrupted. Only this process writes the database, so such a
 * claim is a request the box stopped in the middle of (a power cut, a kill): its work may have
 * committed without its answer being stored. A retry used to be told "still in progress; retry
 * shortly" until the key was pruned a day later; it is now told that the box restarted, so staff
 * look at the ticket instead of waiting, and the work is neither replayed nor done twice.
 */
export async function pruneIdempotencyKeys(db: Db, now: Date) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.created_at, new Date(now.getTime() - KEEP_MS).toISOString()));
  await db.update(idempotencyKeys).set({ status: INTERRUPTED }).where(eq(idempotencyKeys.status, IN_PROGRESS));
}
