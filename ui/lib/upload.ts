import type { UploadedImage } from "../../appliance/modules/images/model";
import { toast } from "../components/toast";
import { BASE, newIdempotencyKey } from "./api";
import { currentToken } from "./session";

/**
 * Uploads an image (multipart, so not through api()); returns its id and URL, or null. Like
 * every POST of api(), it carries an Idempotency-Key, so a retried upload stores one image.
 */
export async function uploadImage(file: File): Promise<UploadedImage | null> {
  const form = new FormData();
  form.append("file", file);
  try {
    const res = await fetch(`${BASE}/images/`, {
      method: "POST",
      body: form,
      headers: { authorization: `token ${currentToken()}`, "idempotency-key": newIdempotencyKey() },
    });
    const json = (await res.json()) as { success: boolean; data?: UploadedImage; message?: string };
    if (json.success && json.data) return json.data;
    toast(json.message ?? "Upload failed", "danger");
  } catch {
    toast("Cannot reach the box; check the Wi-Fi", "danger");
  }
  return null;
}
