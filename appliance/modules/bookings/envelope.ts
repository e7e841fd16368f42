// Issue 35: HQ's instructions to one shop box, signed with the reference-data key the shops
// already trust. Generic on purpose: {kind, uid, site, payload, issued_at}, so a later
// instruction (the deposit transfers) rides the same channel. The signature covers the
// canonical JSON of all five fields, so neither the addressee nor the payload can be swapped.
import type { KeyObject } from "node:crypto";
import { z } from "zod";
import { canonicalJson } from "../reference/service";
import { type SigningKey, signBytes, verifyBytes } from "../reference/signing";

export const Envelope = z.object({
  kind: z.string().min(1).max(40),
  uid: z.string().min(1).max(80),
  site: z.string().min(1).max(80),
  payload: z.unknown(),
  issued_at: z.string(),
});
export type Envelope = z.infer<typeof Envelope>;
export const SignedEnvelope = Envelope.extend({ signature: z.string().max(200) });
export type SignedEnvelope = z.infer<typeof SignedEnvelope>;

const bytesOf = (e: Envelope) => Buffer.from(canonicalJson({ kind: e.kind, uid: e.uid, site: e.site, payload: e.payload, issued_at: e.issued_at }));

export const signEnvelope = (key: SigningKey, e: Envelope): SignedEnvelope => ({ ...e, signature: signBytes(key, bytesOf(e)) });

/** Why an envelope was refused, in plain words. */
export class EnvelopeRefused extends Error {}

/** The envelope when it is signed by HQ's key and addressed to `site`; throws EnvelopeRefused otherwise. */
export function openEnvelope(raw: unknown, key: KeyObject, site: string): Envelope {
  const parsed = SignedEnvelope.safeParse(raw);
  if (!parsed.success) throw new EnvelopeRefused("Not an envelope from head quarters: refused");
  const { signature, ...e } = parsed.data;
  if (!verifyBytes(key, bytesOf(e), signature)) throw new EnvelopeRefused("The envelope's signature does not match head quarters' key: refused");
  if (e.site !== site) throw new EnvelopeRefused(`The envelope is addressed to ${e.site}, not to this box (${site}): refused`);
  return e;
}
