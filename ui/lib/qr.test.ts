import { expect, test } from "bun:test";
import QRCode from "qrcode";
import { itemCode, parseScan } from "../../appliance/domain/scancodes";
import { decodeQr } from "./qr";

/** Paints a QR code's modules as camera pixels (RGBA), with a quiet zone, as a frame would show it. */
function pixelsOf(text: string, scale = 6) {
  const qr = QRCode.create(text, { errorCorrectionLevel: "M" });
  const n = qr.modules.size;
  const size = (n + 8) * scale;
  const px = new Uint8ClampedArray(size * size * 4).fill(255);
  for (let y = 0; y < n; y++)
    for (let x = 0; x < n; x++)
      if (qr.modules.get(y, x))
        for (let dy = 0; dy < scale; dy++)
          for (let dx = 0; dx < scale; dx++) {
            const i = (((y + 4) * scale + dy) * size + (x + 4) * scale + dx) * 4;
            px[i] = px[i + 1] = px[i + 2] = 0;
          }
  return { px, size };
}

test("the camera fallback reads an item label's QR code from pixels", async () => {
  const code = itemCode({ itemId: 88123, desc: "Suit 2pc navy", ticketId: 1042, piece: "Jacket" });
  const { px, size } = pixelsOf(code);
  const read = await decodeQr(px, size, size);
  expect(parseScan(read!)).toMatchObject({ ItemID: 88123, TicketID: 1042, Piece: "Jacket" });
  expect(await decodeQr(new Uint8ClampedArray(size * size * 4).fill(255), size, size)).toBeNull();
});
