import { type Paper, RECEIPT_WIDTH, type ReceiptData, receiptLines } from "./receipt";

const ESC = 0x1b;
const GS = 0x1d;

/**
 * Encodes a receipt as ESC/POS bytes (80 or 58 mm). Pure: bytes out, no I/O. Text goes out
 * in code page 858 (Western European with €): characters outside it print as '?'.
 */
export function encodeEscPosReceipt(d: ReceiptData, paper: Paper = "80mm"): Uint8Array {
  const { lines, qr } = receiptLines(d, RECEIPT_WIDTH[paper]);
  return encodeEscPosLines(lines, paper, qr);
}

/**
 * Lines already laid out (printable, within the paper's width) as ESC/POS bytes: alignment
 * and bold per line, then the QR of `qr` when given, then feed and cut. Pure. The receipt and
 * the Z report (zReport.ts) both print through it.
 */
export function encodeEscPosLines(lines: readonly { text: string; bold?: boolean; center?: boolean }[], paper: Paper, qr?: string): Uint8Array {
  const out: number[] = [];
  const push = (...b: number[]) => out.push(...b);
  const text = (s: string) => {
    for (const ch of s) out.push(cp858(ch));
  };
  push(ESC, 0x40); // initialise
  push(ESC, 0x74, 19); // code page 858
  for (const l of lines) {
    push(ESC, 0x61, l.center ? 1 : 0); // align
    push(ESC, 0x45, l.bold ? 1 : 0); // bold
    text(l.text);
    push(0x0a);
  }
  if (qr !== undefined) {
    // QR code (model 2, module size 6, error correction M), centred.
    const data = [...new TextEncoder().encode(qr)];
    const len = data.length + 3;
    push(ESC, 0x61, 1);
    push(GS, 0x28, 0x6b, 4, 0, 0x31, 0x41, 0x32, 0x00);
    push(GS, 0x28, 0x6b, 3, 0, 0x31, 0x43, paper === "58mm" ? 4 : 6);
    push(GS, 0x28, 0x6b, 3, 0, 0x31, 0x45, 0x31);
    push(GS, 0x28, 0x6b, len & 0xff, len >> 8, 0x31, 0x50, 0x30, ...data);
    push(GS, 0x28, 0x6b, 3, 0, 0x31, 0x51, 0x30);
  }
  push(0x0a, 0x0a, 0x0a);
  push(GS, 0x56, 0x42, 0); // feed and partial cut
  return new Uint8Array(out);
}

/** ASCII as is, a few Latin-1 letters, € at 0xD5 (code page 858); others as '?'. */
function cp858(ch: string): number {
  const c = ch.charCodeAt(0);
  if (c >= 0x20 && c < 0x7f) return c;
  const map: Record<string, number> = { "€": 0xd5, é: 0x82, è: 0x8a, à: 0x85, ü: 0x81, ö: 0x94, ä: 0x84, ñ: 0xa4, ç: 0x87 };
  return map[ch] ?? 0x3f;
}

/** Reads the printable text back out of ESC/POS bytes: tests check receipts by parsing them. */
export function escPosText(bytes: Uint8Array): { lines: string[]; qr: string | null; cut: boolean } {
  const lines: string[] = [];
  let line = "";
  let qr: string | null = null;
  let cut = false;
  const rev: Record<number, string> = { 0xd5: "€", 0x82: "é", 0x8a: "è", 0x85: "à", 0x81: "ü", 0x94: "ö", 0x84: "ä", 0xa4: "ñ", 0x87: "ç" };
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === ESC) {
      const cmd = bytes[i + 1];
      i += cmd === 0x40 ? 1 : 2;
    } else if (b === GS && bytes[i + 1] === 0x28 && bytes[i + 2] === 0x6b) {
      const len = bytes[i + 3]! | (bytes[i + 4]! << 8);
      if (bytes[i + 6] === 0x50) qr = new TextDecoder().decode(bytes.slice(i + 8, i + 5 + len));
      i += 4 + len;
    } else if (b === GS && bytes[i + 1] === 0x56) {
      cut = true;
      i += 3;
    } else if (b === 0x0a) {
      lines.push(line);
      line = "";
    } else line += rev[b] ?? String.fromCharCode(b);
  }
  return { lines, qr, cut };
}
