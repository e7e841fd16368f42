/**
 * The web app's icons (ui/manifest.webmanifest), drawn at build time: the brand's white
 * diamond on its dark blue, full bleed so Android may mask it to any shape (the diamond stays
 * inside the maskable safe zone, a centred circle of 40 % of the size). A tiny PNG encoder:
 * 8-bit RGB, one deflated IDAT.
 */
import { deflateSync } from "node:zlib";

const BRAND = [0x0f, 0x3d, 0x5e];
const WHITE = [0xff, 0xff, 0xff];

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(Bun.hash.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

export function iconPng(size: number): Buffer {
  const c = (size - 1) / 2;
  const r = size * 0.27; // the diamond's half-diagonal: well inside the safe zone
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3); // filter byte 0, then RGB
    for (let x = 0; x < size; x++) {
      const px = Math.abs(x - c) + Math.abs(y - c) <= r ? WHITE : BRAND;
      rows.set(px, row + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", new Uint8Array()),
  ]);
}
