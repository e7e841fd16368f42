import { importOrReload } from "./release";
/**
 * Reads a QR code from camera pixels where the browser has no BarcodeDetector (the spec's
 * polyfill). jsQR is loaded only when needed, so the first load stays small.
 */
export async function decodeQr(pixels: Uint8ClampedArray, width: number, height: number): Promise<string | null> {
  const { default: jsQR } = await importOrReload(() => import("jsqr"));
  return jsQR(pixels, width, height, { inversionAttempts: "dontInvert" })?.data ?? null;
}
