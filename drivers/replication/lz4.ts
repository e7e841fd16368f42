/**
 * LZ4 frame decoding (the format of Litestream 0.3's `*.snapshot.lz4` and `*.wal.lz4` files,
 * written by Go's pierrec/lz4), so HQ can read a replica's new WAL segments itself and apply
 * them to the copy it keeps (appliance/modules/chain/apply.ts) instead of restoring the whole
 * database. Strict on purpose: a segment torn by a box that died uploading it (cut short) or
 * damaged must throw, never yield a shorter WAL that would be applied as if whole.
 *
 * Format: https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md and lz4_Block_format.md.
 */

const MAGIC = 0x184d2204;
/** Skippable frames (0x184D2A50..5F) carry no data. */
const SKIPPABLE = 0x184d2a50;

export class Lz4Error extends Error {}

/** Growable output: matches may reach back into earlier blocks (linked blocks), so one buffer. */
class Out {
  buf: Uint8Array;
  len = 0;
  constructor(size: number) {
    this.buf = new Uint8Array(Math.max(size, 1024));
  }
  room(n: number) {
    if (this.len + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
}

function u32(src: Uint8Array, at: number): number {
  if (at + 4 > src.length) throw new Lz4Error("lz4: cut short");
  return (src[at]! | (src[at + 1]! << 8) | (src[at + 2]! << 16) | (src[at + 3]! << 24)) >>> 0;
}

/** One compressed block (src[from, to)) appended to out. */
function decodeBlock(src: Uint8Array, from: number, to: number, out: Out): void {
  let ip = from;
  const start = out.len;
  while (ip < to) {
    const token = src[ip++]!;
    let lit = token >> 4;
    if (lit === 15) {
      let b = 255;
      while (b === 255) {
        if (ip >= to) throw new Lz4Error("lz4: bad literal length");
        b = src[ip++]!;
        lit += b;
      }
    }
    if (ip + lit > to) throw new Lz4Error("lz4: literals past the block");
    out.room(lit);
    out.buf.set(src.subarray(ip, ip + lit), out.len);
    out.len += lit;
    ip += lit;
    // The last sequence of a block is literals only.
    if (ip === to) break;
    if (ip + 2 > to) throw new Lz4Error("lz4: match offset past the block");
    const offset = src[ip]! | (src[ip + 1]! << 8);
    ip += 2;
    if (offset === 0 || offset > out.len) throw new Lz4Error("lz4: bad match offset");
    let ml = token & 15;
    if (ml === 15) {
      let b = 255;
      while (b === 255) {
        if (ip >= to) throw new Lz4Error("lz4: bad match length");
        b = src[ip++]!;
        ml += b;
      }
    }
    ml += 4;
    out.room(ml);
    const buf = out.buf;
    let from2 = out.len - offset;
    if (offset >= ml) buf.copyWithin(out.len, from2, from2 + ml);
    else for (let i = 0; i < ml; i++) buf[out.len + i] = buf[from2++]!; // overlapping: a run
    out.len += ml;
  }
  if (out.len === start && to > from) throw new Lz4Error("lz4: empty block");
}

/** Every frame of `src` decoded and joined. Throws Lz4Error when cut short or damaged. */
export function lz4Decode(src: Uint8Array): Uint8Array {
  const out = new Out(src.length * 4);
  let ip = 0;
  if (src.length < 4) throw new Lz4Error("lz4: not a frame");
  while (ip < src.length) {
    const magic = u32(src, ip);
    if ((magic & 0xfffffff0) === SKIPPABLE) {
      ip += 8 + u32(src, ip + 4);
      continue;
    }
    if (magic !== MAGIC) throw new Lz4Error("lz4: not a frame");
    ip += 4;
    if (ip + 3 > src.length) throw new Lz4Error("lz4: cut short");
    const flg = src[ip]!;
    if (flg >> 6 !== 1) throw new Lz4Error("lz4: unknown frame version");
    const blockChecksum = (flg & 0x10) !== 0;
    const contentSize = (flg & 0x08) !== 0;
    const contentChecksum = (flg & 0x04) !== 0;
    const dict = (flg & 0x01) !== 0;
    if (dict) throw new Lz4Error("lz4: dictionaries are not supported");
    ip += 2 + (contentSize ? 8 : 0) + 1; // FLG, BD, content size, header checksum
    const frameStart = out.len;
    for (;;) {
      const word = u32(src, ip);
      ip += 4;
      if (word === 0) break; // end mark
      const size = word & 0x7fffffff;
      if (ip + size + (blockChecksum ? 4 : 0) > src.length) throw new Lz4Error("lz4: cut short");
      if (word & 0x80000000) {
        out.room(size);
        out.buf.set(src.subarray(ip, ip + size), out.len);
        out.len += size;
      } else decodeBlock(src, ip, ip + size, out);
      ip += size + (blockChecksum ? 4 : 0);
    }
    if (contentChecksum) {
      const want = u32(src, ip);
      ip += 4;
      const got = Bun.hash.xxHash32(out.buf.subarray(frameStart, out.len), 0);
      if (got !== want) throw new Lz4Error("lz4: content checksum mismatch");
    }
  }
  return out.buf.slice(0, out.len);
}
