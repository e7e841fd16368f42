import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { tooLarge, unprocessable } from "../../platform/errors";
import type { StorageRules } from "../images/storage";

/**
 * Drawn signatures (a state change's proof of delivery) are kept in the database, one per
 * change (issue 22: a driver sent 30 signatures of 2 MB in under a second, outside every
 * limit). A signature is capped at SIGNATURE_MAX_CHARS as sent, the data URL itself, since
 * that is what is stored (413 above it), and it counts against the shop's storage like an
 * image: the free-space floor and the per-shop quota images and signatures share.
 *
 * Each signature row carries its shop and size (migration signature_shop: set by triggers
 * when the row and its change's ticket log rows are written). A shop's total is read once per
 * process, at its first signed change or upload, from the (agent_id, bytes) index: that shop's
 * index entries only (it used to be one pass over the whole ticket log, ~1 s on 1.5 M rows),
 * then kept up to date here: this process is the only writer of the box's database. A change's
 * bytes are counted before its transaction (two at once cannot both slip under the quota) and
 * given back if it fails.
 */

/** The longest signature taken: 256 KiB of data URL (a real one is ~30 KB). */
export const SIGNATURE_MAX_CHARS = 256 * 1024;
const DATA_URL = /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/;

/** A signature's bytes held against its shop's quota until its change commits (or gives them back). */
export interface SignatureHold {
  release(): void;
}

export function createSignatureStore({
  db,
  rules,
  otherBytes,
}: {
  db: Db;
  rules: StorageRules;
  /** What else the shop keeps under the same quota: its images (modules/images). */
  otherBytes: (agentId: number) => Promise<number>;
}) {
  const totals = new Map<number, number>();
  const loading = new Map<number, Promise<number>>();

  /** Bytes of a shop's signatures: summed from the index once, then counted here. */
  async function shopBytes(agentId: number): Promise<number> {
    const known = totals.get(agentId);
    if (known !== undefined) return known;
    let pending = loading.get(agentId);
    if (!pending) {
      pending = (async () => {
        const [row] = await db.all<{ bytes: number }>(sql`SELECT coalesce(sum(bytes), 0) AS bytes FROM signatures WHERE agent_id = ${agentId}`);
        const bytes = Number(row?.bytes ?? 0);
        totals.set(agentId, bytes);
        return bytes;
      })().finally(() => loading.delete(agentId));
      loading.set(agentId, pending);
    }
    return pending;
  }

  return {
    /** What a shop's signatures take (for the images' quota). */
    async bytes(agentId: number): Promise<number> {
      return shopBytes(agentId);
    },

    /**
     * Checks a signature about to be stored for the caller's shop and counts its bytes: 413
     * above the cap, 422 when it is not an image data URL, 507 below the free-space floor or
     * over the quota (with the shop's images). null when there is none.
     */
    async hold(agentId: number, dataUrl: string | null | undefined): Promise<SignatureHold | null> {
      if (!dataUrl) return null;
      if (dataUrl.length > SIGNATURE_MAX_CHARS)
        throw tooLarge(
          `Signature: at most ${SIGNATURE_MAX_CHARS / 1024} KB (this one is ${Math.ceil(dataUrl.length / 1024)} KB); clear it and sign again, or update the app`,
        );
      if (!DATA_URL.test(dataUrl)) throw unprocessable("Signature: must be a PNG, JPEG or WebP data URL");
      const size = dataUrl.length;
      await rules.checkFreeSpace(size);
      const others = await otherBytes(agentId);
      await shopBytes(agentId);
      // From here to the count, nothing awaits: two changes at once see each other's bytes.
      const mine = totals.get(agentId) ?? 0;
      rules.checkQuota(mine + others, size);
      totals.set(agentId, mine + size);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          totals.set(agentId, Math.max(0, (totals.get(agentId) ?? 0) - size));
        },
      };
    },
  };
}
export type SignatureStore = ReturnType<typeof createSignatureStore>;
