// The images module's contract with the UI: an upload and what it answers.
import { z } from "zod";

export const UploadBody = z.object({ file: z.instanceof(File, { message: "file: an image file is required" }) });
export const ImageFileParams = z.object({ file: z.string().regex(/^[0-9a-f-]{36}\.(png|jpg|gif|webp)$/) });

/** An uploaded image: `url` serves it; the random name is the capability. */
export const UploadedImage = z.object({ id: z.number(), file: z.string(), url: z.string(), mime: z.string(), size: z.number() });
export type UploadedImage = z.infer<typeof UploadedImage>;
