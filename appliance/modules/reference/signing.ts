import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** HQ's snapshot signing key, in the data folder (0600): made on the first publish. */
export const SIGNING_KEY_FILE = "reference-signing-key.pem";

export interface SigningKey {
  privateKey: KeyObject;
  /** The public half as one line of text (base64 SPKI DER): what a shop box is enrolled with. */
  publicText: string;
}

export const publicKeyText = (key: KeyObject) => key.export({ type: "spki", format: "der" }).toString("base64");

/** The key in `dataDir`, or null while none was made. */
export function loadSigningKey(dataDir: string): SigningKey | null {
  const file = join(dataDir, SIGNING_KEY_FILE);
  if (!existsSync(file)) return null;
  const privateKey = createPrivateKey(readFileSync(file));
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error(`${SIGNING_KEY_FILE} is not an Ed25519 key`);
  return { privateKey, publicText: publicKeyText(createPublicKey(privateKey)) };
}

/** Loads HQ's key, making it first when there is none (written once: `wx` never overwrites a key). */
export function ensureSigningKey(dataDir: string): SigningKey {
  const found = loadSigningKey(dataDir);
  if (found) return found;
  const { privateKey } = generateKeyPairSync("ed25519");
  const file = join(dataDir, SIGNING_KEY_FILE);
  try {
    writeFileSync(file, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600, flag: "wx" });
    chmodSync(file, 0o600); // the umask may have narrowed it further, never widened; be exact
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  return loadSigningKey(dataDir)!;
}

/**
 * The public key a shop box is enrolled with: base64 SPKI DER (as HQ's status shows it) or a
 * PEM block. Throws on anything that is not an Ed25519 public key.
 */
export function parsePublicKey(text: string): KeyObject {
  const t = text.trim();
  const key = t.startsWith("-----BEGIN") ? createPublicKey(t) : createPublicKey({ key: Buffer.from(t, "base64"), format: "der", type: "spki" });
  if (key.asymmetricKeyType !== "ed25519") throw new Error("not an Ed25519 public key");
  return key;
}

export const signBytes = (key: SigningKey, bytes: Uint8Array) => sign(null, bytes, key.privateKey).toString("base64");

/** True only for a signature by this key over exactly these bytes. */
export function verifyBytes(publicKey: KeyObject, bytes: Uint8Array, signature: string): boolean {
  const sig = Buffer.from(signature, "base64");
  if (sig.length !== 64) return false;
  return verify(null, bytes, publicKey, sig);
}
