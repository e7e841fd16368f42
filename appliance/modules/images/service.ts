import { randomUUID } from "node:crypto";
import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { images } from "../../../db/schema";
import { notFound, unprocessable } from "../../http/errors";
import type { EmployeeCaller } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

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
 * Uploaded images (catalogue pictures, item photos) live in <data dir>/images under random
 * names. They are served without a token (an <img> cannot send one): the unguessable name is
 * the capability. The file is written whole to a temporary name and renamed, so a crash
 * never leaves half an image behind a database row.
 */
export function createImageService({ db, dataDir }: { db: Db; dataDir: string }) {
  const dir = join(dataDir, "images");
  return {
    async upload(caller: EmployeeCaller, file: File) {
      if (file.size > MAX_IMAGE_BYTES) throw unprocessable(`file: images may be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
      const bytes = new Uint8Array(await file.arrayBuffer());
      const kind = sniffImage(bytes);
      if (!kind) throw unprocessable("file: must be a PNG, JPEG, GIF or WebP image");
      await mkdir(dir, { recursive: true });
      const name = `${randomUUID()}.${kind.ext}`;
      const tmp = join(dir, `.${name}.tmp`);
      await writeFile(tmp, bytes, { flush: true });
      await rename(tmp, join(dir, name));
      try {
        const [row] = await db.insert(images).values({ file: name, mime: kind.mime, size: bytes.length, uploaded_by: caller.employee.id }).returning();
        return { id: row!.id, file: name, url: `/api/v1/images/${name}`, mime: kind.mime, size: bytes.length };
      } catch (e) {
        await unlink(join(dir, name)).catch(() => {});
        throw e;
      }
    },
    async serve(name: string): Promise<Response> {
      const row = await db.query.images.findFirst({ where: eq(images.file, name) });
      if (!row) throw notFound("Image");
      const f = Bun.file(join(dir, row.file));
      if (!(await f.exists())) throw notFound("Image");
      return new Response(f, { headers: { ...SECURITY_HEADERS, "content-type": row.mime, "cache-control": "public, max-age=31536000, immutable" } });
    },
  };
}
export type ImageService = ReturnType<typeof createImageService>;
