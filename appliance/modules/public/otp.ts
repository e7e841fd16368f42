// Issue 35: one-time codes before an online booking. Six digits, stored as a salted SHA-256,
// good for 10 minutes; five wrong tries burn the code (the sixth try is refused even with the
// right code). A code goes to any well-formed mobile the rate limits let through (a new customer
// of the chain is the point of booking online; docs/decisions/public-face.md), so every phone
// takes the same path and the answer never says whether a shop knows it.
import { createHash, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { and, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { publicOtps } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import { AppError, unprocessable } from "../../platform/errors";
import type { CustomerReads } from "../customers/reads";
import type { CodeMessage } from "../messaging/links";

export const CODE_MINUTES = 10;
export const MAX_TRIES = 5;
/** The one answer to POST /otp, known number or not. */
export const CODE_SENT = "If this number is known, a code was sent";
/** The one refusal of a code: wrong, expired, burnt, already used, or never sent. */
export const CODE_REFUSED = "The code is not right or no longer valid: ask for a new code";

/** The spellings a shop may have saved a mobile as (Malta's +356 with and without), digits only. */
export function phoneSpellings(input: string): { dial: string; spellings: string[] } | null {
  const dial = input.replace(/\s+/g, "");
  if (!/^\+?\d{6,15}$/.test(dial)) return null;
  const local = dial.startsWith("+356") ? dial.slice(4) : dial.startsWith("00356") ? dial.slice(5) : dial.startsWith("+") ? null : dial;
  const out = new Set([dial]);
  if (local) for (const s of [local, `+356${local}`, `00356${local}`, `${local.slice(0, 4)} ${local.slice(4)}`, `+356 ${local}`]) out.add(s);
  return { dial: local ? `+356${local}` : dial, spellings: [...out] };
}

/** A wrong code: the same words as every refusal, and (for the booking page) the tries it leaves. */
export class CodeRefused extends AppError {
  constructor(readonly triesLeft: number) {
    super("invalid", CODE_REFUSED);
  }
}

const hashCode = (code: string, salt: string) => createHash("sha256").update(`${salt}:${code}`).digest();

export function createOtps({
  db,
  clock,
  customers,
  boxAgent,
  queueCode,
  log,
}: {
  db: Db;
  clock: Clock;
  customers: Pick<CustomerReads, "byMobiles">;
  /** The agent a code to a mobile no customer of this box has is filed under (HQ's own). */
  boxAgent: () => Promise<number | null>;
  queueCode: (m: CodeMessage) => Promise<number | null>;
  log: (m: string, e?: unknown) => void;
}) {
  return {
    /**
     * POST /otp: a fresh code to the mobile (the older unused ones end); the same answer for every
     * phone. A customer of this box is named on the message; any other mobile (known only in a
     * shop's copy at HQ, or to nobody yet) gets it through this box's own channel too.
     */
    async send(phone: string): Promise<{ message: string }> {
      const p = phoneSpellings(phone);
      if (!p) return { message: CODE_SENT };
      const [customer] = await customers.byMobiles(p.spellings);
      const agent = customer?.agent_id ?? (await boxAgent());
      if (agent === null) return { message: CODE_SENT };
      const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
      const salt = randomBytes(16).toString("hex");
      const now = clock.now();
      await db.transaction(async (tx) => {
        // One live code per phone: asking again ends the one before.
        await tx
          .update(publicOtps)
          .set({ used_at: now.toISOString() })
          .where(and(eq(publicOtps.phone, p.dial), isNull(publicOtps.used_at)));
        await tx.insert(publicOtps).values({
          phone: p.dial,
          code_hash: hashCode(code, salt).toString("hex"),
          salt,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + CODE_MINUTES * 60_000).toISOString(),
        });
      });
      const queued = await queueCode({
        agent_id: agent,
        customer_id: customer?.id ?? null,
        mobile: p.dial,
        text: `${code} is your code to book a pickup. It is good for ${CODE_MINUTES} minutes. Nobody from the shop will ask you for it.`,
      });
      // Logged without the phone or the code.
      if (queued === null) log("public face: a booking code could not be sent (no SMS channel is set up)");
      return { message: CODE_SENT };
    },

    /**
     * Checks a code against the phone's live code and uses it up in `tx` when right; throws the
     * one refusal otherwise (a wrong try is counted in its own write, so a refusal keeps it).
     */
    async check(phone: string, code: string): Promise<{ dial: string; otpId: number }> {
      const p = phoneSpellings(phone);
      if (!p) throw unprocessable(CODE_REFUSED);
      const now = clock.now().toISOString();
      const [row] = await db.select().from(publicOtps).where(eq(publicOtps.phone, p.dial)).orderBy(desc(publicOtps.id)).limit(1);
      if (!row || row.used_at || row.expires_at <= now || row.tries >= MAX_TRIES) throw unprocessable(CODE_REFUSED);
      if (!timingSafeEqual(hashCode(code, row.salt), Buffer.from(row.code_hash, "hex"))) {
        await db
          .update(publicOtps)
          .set({ tries: sql`${publicOtps.tries} + 1` })
          .where(eq(publicOtps.id, row.id));
        throw new CodeRefused(MAX_TRIES - row.tries - 1);
      }
      return { dial: p.dial, otpId: row.id };
    },

    /** Uses the code up in the booking's write; false when another request used (or burnt) it first. */
    async use(tx: Pick<Db, "update">, otpId: number): Promise<boolean> {
      const done = await tx
        .update(publicOtps)
        .set({ used_at: clock.now().toISOString() })
        .where(and(eq(publicOtps.id, otpId), isNull(publicOtps.used_at), lt(publicOtps.tries, MAX_TRIES)))
        .returning({ id: publicOtps.id });
      return done.length === 1;
    },
  };
}
export type Otps = ReturnType<typeof createOtps>;
