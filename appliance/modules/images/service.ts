import { randomUUID } from "node:crypto";
import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { and, eq, inArray, lt, sql, sum } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { images } from "../../../db/schema";
import { notFound, unprocessable } from "../../platform/errors";
import type { AgentCaller, EmployeeCaller } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from "../../platform/config";
import { audit } from "../audit/audit";
import { createStorageRules, type DiskSpace } from "./storage";

export type { DiskSpace } from "./storage";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MB = 1024 * 1024;

/** An image that nothing references a day after its upload is removed (file and row). */
export const UNUSED_IMAGE_MS = 24 * 60 * 60 * 1000;

/** Recognises an image by its first bytes, never by the name or type the client claims. */
export function sniffImage(b: Uint8Array): { mime: string; ext: string } | null {
  const starts = (...sig: number[]) => sig.every((v, i) => b[i] === v);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return { mime: "image/png", ext: "png" };
  if (starts(0xff, 0xd8, 0xff)) return { mime: "image/jpeg", ext: "jpg" };
  if (starts(0x47, 0x49, 0x46, 0x38)) return { mime: "image/gif", ext: "gif" };
  if (starts(0x52, 0x49, 0x46, 0x46) && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50) return { mime: "image/webp", ext: "webp" };
  return null;
}

/**
 * A reference to images (an item's action photos) must name images the caller may see: its
 * shop's uploads (HQ sees all). Another shop's answers 404, exactly like one that does not exist.
 */
export async function assertImagesVisible(q: Pick<Db, "select">, caller: AgentCaller, ids: readonly number[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (!unique.length) return;
  const found = await q
    .select({ id: images.id })
    .from(images)
    .where(and(inArray(images.id, unique), caller.agent.is_hq ? undefined : eq(images.agent_id, caller.agent.id)));
  if (found.length !== unique.length) throw notFound("Image");
}

/**
 * Uploaded images (catalogue pictures, item photos) live in <data dir>/images under random
 * names and belong to the uploader's shop. They are served without a token (an <img> cannot
 * send one): the unguessable name is the capability. The file is written whole to a
 * temporary name and renamed, so a crash never leaves half an image behind a database row.
 */
export function createImageService({
  db,
  clock,
  dataDir,
  limits = DEFAULT_UPLOAD_LIMITS,
  space,
  otherBytes = async () => 0,
}: {
  db: Db;
  clock: Clock;
  dataDir: string;
  limits?: UploadLimits;
  space?: DiskSpace;
  /** What else a shop keeps under the same quota: its signatures (modules/tickets/signatures). */
  otherBytes?: (agentId: number) => Promise<number>;
}) {
  const dir = join(dataDir, "images");
  // An upload that would not fit is 507 Insufficient Storage (as WebDAV answers a full quota), with the reason.
  const rules = createStorageRules({ dataDir, limits, space });

  return {
    /** What a shop's uploads take (the quota it shares with its signatures). */
    async bytes(agentId: number): Promise<number> {
      const [used] = await db
        .select({ bytes: sum(images.size) })
        .from(images)
        .where(eq(images.agent_id, agentId));
      return Number(used?.bytes ?? 0);
    },

    async upload(caller: EmployeeCaller, file: File) {
      if (file.size > MAX_IMAGE_BYTES) throw unprocessable(`file: images may be at most ${MAX_IMAGE_BYTES / MB} MB`);
      const bytes = new Uint8Array(await file.arrayBuffer());
      const kind = sniffImage(bytes);
      if (!kind) throw unprocessable("file: must be a PNG, JPEG, GIF or WebP image");
      await mkdir(dir, { recursive: true });
      await rules.checkFreeSpace(bytes.length);
      const others = await otherBytes(caller.agent.id);
      const name = `${randomUUID()}.${kind.ext}`;
      const tmp = join(dir, `.${name}.tmp`);
      await writeFile(tmp, bytes, { flush: true });
      await rename(tmp, join(dir, name));
      try {
        // The quota is counted inside the write transaction, so parallel uploads cannot both slip under it.
        const row = await db.transaction(async (tx) => {
          const [used] = await tx
            .select({ bytes: sum(images.size) })
            .from(images)
            .where(eq(images.agent_id, caller.agent.id));
          rules.checkQuota(Number(used?.bytes ?? 0) + others, bytes.length);
          const [row] = await tx
            .insert(images)
            .values({
              file: name,
              mime: kind.mime,
              size: bytes.length,
              uploaded_by: caller.employee.id,
              agent_id: caller.agent.id,
              created_at: clock.now().toISOString(),
            })
            .returning();
          await audit(tx, clock.now(), caller, "upload", "image", row!.id, { file: name, size: bytes.length });
          return row!;
        });
        return { id: row.id, file: name, url: `/api/v1/images/${name}`, mime: kind.mime, size: bytes.length };
      } catch (e) {
        await unlink(join(dir, name)).catch(() => {});
        throw e;
      }
    },

    /** The stored file of an image and its type; the route sends it. */
    async file(name: string): Promise<{ file: ReturnType<typeof Bun.file>; mime: string }> {
      const row = await db.query.images.findFirst({ where: eq(images.file, name) });
      if (!row) throw notFound("Image");
      const file = Bun.file(join(dir, row.file));
      if (!(await file.exists())) throw notFound("Image");
      return { file, mime: row.mime };
    },

    /** Sweeps now and then daily, in the background; returns the stop function. */
    startSweeper(log: (m: string, e?: unknown) => void = () => {}) {
      const run = () =>
        this.sweepUnused().then(
          (ids) => ids.length && log(`Removed ${ids.length} unused image(s)`),
          (e) => log("Image sweep failed", e),
        );
      void run();
      const timer = setInterval(run, UNUSED_IMAGE_MS);
      timer.unref?.();
      return () => clearInterval(timer);
    },

    /**
     * Removes uploads that nothing references a day after they came in: no item action's
     * photos (their JSON id arrays) and no catalogue picture (actions, garment categories,
     * garments, modifiers hold the URL). Signatures are stored in their own table, not here.
     * One pass over the item actions that have photos; the rows go in one transaction, then
     * the files. Returns the ids removed.
     */
    async sweepUnused(): Promise<number[]> {
      const cutoff = new Date(clock.now().getTime() - UNUSED_IMAGE_MS).toISOString();
      // Looked up inside the write transaction: a photo attached meanwhile is not taken.
      const unused = await db.transaction(async (tx) => {
        const unused = await tx
          .select({ id: images.id, file: images.file })
          .from(images)
          .where(
            and(
              lt(images.created_at, cutoff),
              sql`${images.id} NOT IN (SELECT j.value FROM ticket_sub_category_actions a, json_each(a.images) j WHERE a.images <> '[]')`,
              sql`NOT EXISTS (SELECT 1 FROM actions c WHERE instr(c.image, ${images.file}) > 0)`,
              sql`NOT EXISTS (SELECT 1 FROM garment_categories c WHERE instr(c.image, ${images.file}) > 0)`,
              sql`NOT EXISTS (SELECT 1 FROM garment_sub_categories c WHERE instr(c.image, ${images.file}) > 0)`,
              sql`NOT EXISTS (SELECT 1 FROM modifiers c WHERE instr(c.image, ${images.file}) > 0)`,
            ),
          );
        if (unused.length) {
          await tx.delete(images).where(
            inArray(
              images.id,
              unused.map((u) => u.id),
            ),
          );
          await audit(tx, clock.now(), { kind: "none" }, "sweep", "image", null, { removed: unused.map((u) => u.file) });
        }
        return unused;
      });
      for (const u of unused) await unlink(join(dir, u.file)).catch(() => {});
      return unused.map((u) => u.id);
    },
  };
}
export type ImageService = ReturnType<typeof createImageService>;
