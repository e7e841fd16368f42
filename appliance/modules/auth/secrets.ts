import { createHmac, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";

const SECRET_KEY = "token_secret";

/**
 * The per-box secret, made on first boot. It lives in the database (not a loose file) so a
 * box restored from its HQ replica keeps its PIN hashes valid.
 */
export async function getBoxSecret(db: Db): Promise<string> {
  const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, SECRET_KEY) });
  if (row) return row.value;
  const value = randomBytes(32).toString("base64url");
  await db.insert(boxSettings).values({ key: SECRET_KEY, value }).onConflictDoNothing();
  const again = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, SECRET_KEY) });
  return again!.value;
}

/**
 * PINs are short, so a slow password hash per employee would make PIN login scan every
 * employee of the agent. A keyed HMAC instead gives a lookup key that is unique within the
 * agent and useless without the box secret.
 */
export function hashPin(secret: string, agentId: number, pin: string | number): string {
  return createHmac("sha256", secret)
    .update(`pin:${agentId}:${String(pin)}`)
    .digest("base64url");
}

export const hashPassword = (password: string) => Bun.password.hash(password, { algorithm: "argon2id", memoryCost: 19456, timeCost: 2 });
export const verifyPassword = (password: string, hash: string) => Bun.password.verify(password, hash);
