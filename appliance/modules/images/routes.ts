import { ROLES, route } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";
import { ImageFileParams, UploadBody, UploadedImage } from "./model";
import type { ImageService } from "./service";

export function imageRoutes(images: ImageService) {
  return [
    route({
      method: "POST",
      path: "/images/",
      tag: "images",
      summary: "Uploads an image (multipart field `file`; PNG, JPEG, GIF or WebP, 5 MB at most)",
      access: { roles: ROLES },
      body: UploadBody,
      response: UploadedImage,
      idempotent: true,
      multipart: true,
      handler: ({ caller, body }) => images.upload(caller, body.file),
    }),
    route({
      method: "GET",
      path: "/images/:file",
      tag: "images",
      summary: "Serves an uploaded image by its random name",
      access: { public: true },
      params: ImageFileParams,
      raw: true,
      handler: async ({ params }) => {
        const { file, mime } = await images.file(params.file);
        // The random name is the capability and never changes: cache it for good.
        return new Response(file, { headers: { ...SECURITY_HEADERS, "content-type": mime, "cache-control": "public, max-age=31536000, immutable" } });
      },
    }),
  ];
}
