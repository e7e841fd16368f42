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
 * A signature has no shop column: its shop is the one whose staff drew it, which every change
 * records on the ticket log rows that reference it. Summing that per change would read the
 * whole ticket log (millions of rows at ten years, against a 100 ms bar for a signed scan), so
 * each shop's total is read once per process (at the first signed change or upload), in one
 * pass over all shops, and kept up to date here: this process is the only writer of the box's
 * database. A change's bytes are counted
 * before its transaction (two at once cannot both slip under the quota) and given back if it
 * fails. What would change this: a shop column on signatures (a migration), summed per change.
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
  let totals: Map<number, number> | null = null;
  let loading: Promise<Map<number, number>> | null = null;

  /**
   * Bytes of signatures per shop, read once. octet_length reads a value's size from its record
   * header, but only in a plain scan: in a join SQLite loads every signature whole (3 s for
   * 4,000 of 30 KB here), hence the materialized sizes first (0.13 s). Measured on 1.5 M log
   * rows and 20,000 signatures: about 1 s, near a bare scan of the log (0.6-0.9 s).
   */
  async function all(): Promise<Map<number, number>> {
    if (totals) return totals;
    loading ??= (async () => {
      const rows = await db.all<{ agent_id: number; bytes: number }>(sql`
        WITH size AS MATERIALIZED (SELECT id, octet_length(data_url) AS bytes FROM signatures)
        SELECT l.agent_id AS agent_id, coalesce(sum(size.bytes), 0) AS bytes
        FROM size
        JOIN (SELECT DISTINCT signature_id, agent_id FROM ticket_log_states WHERE signature_id IS NOT NULL AND agent_id IS NOT NULL) l ON l.signature_id = size.id
        GROUP BY l.agent_id`);
      const map = new Map<number, number>();
      for (const r of rows) map.set(Number(r.agent_id), Number(r.bytes));
      totals = map;
      return map;
    })().finally(() => {
      loading = null;
    });
    return loading;
  }

  return {
    /** What a shop's signatures take (for the images' quota). */
    async bytes(agentId: number): Promise<number> {
      return (await all()).get(agentId) ?? 0;
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
      const map = await all();
      // From here to the count, nothing awaits: two changes at once see each other's bytes.
      const mine = map.get(agentId) ?? 0;
      rules.checkQuota(mine + others, size);
      map.set(agentId, mine + size);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          map.set(agentId, Math.max(0, (map.get(agentId) ?? 0) - size));
        },
      };
    },
  };
}
export type SignatureStore = ReturnType<typeof createSignatureStore>;
