import { type LabelData, type LabelVariant, labelLayout, labelQr } from "./label";

/*
 * PPLA: Argox's Datamax-DPL-like label language. A job is <STX>L, D11 (dot size 1×1), one
 * record per field, and E (print one). A text record is
 *   rotation font hmul vmul size(3) row(4) column(4) data <CR>
 * and a QR code the extended barcode W1d (auto format: model 2, ECC M), whose data ends with
 * two CRs. Rows and columns are in 0.01 inch, rows counted from the bottom of the label.
 * Built from the DPL programmer's manual (W1d record, Appendix G); check the first PPLA
 * label on a real Argox printer before relying on it (STACK-NOTES).
 */
const STX = "\x02";
const CR = "\r";
const DPI = 203;
const inch100 = (dots: number) => Math.round((dots / DPI) * 100);
const n4 = (n: number) => String(Math.max(0, Math.min(9999, Math.round(n)))).padStart(4, "0");

/**
 * Record data cannot end a record early: control characters (CR, LF, STX…) become spaces.
 * Internal fonts print ASCII: accents are dropped (Ġużeppi → Guzeppi), the rest becomes '?'.
 */
export function pplaText(s: string): string {
  return s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ħ/g, "h")
    .replace(/Ħ/g, "H")
    .replace(/[\x00-\x1f\x7f]/g, " ")
    .replace(/[^\x20-\x7e]/g, "?");
}
/** QR data goes as UTF-8 bytes (scanners read byte mode as UTF-8); only control characters are dropped. */
const qrData = (s: string) => s.replace(/[\x00-\x1f\x7f]/g, " ");

/**
 * Encodes one item label as a complete PPLA job. Pure: bytes out, no I/O. The layout is the
 * PPLZ one (labelLayout, in dots from the top) turned into 0.01 inch rows from the bottom.
 * Font 2 (about 10 point) on small labels, font 3 (about 12 point) otherwise; QR modules of
 * 0.02 inch (0.01 inch is one 203-dpi dot pair).
 */
export function encodePpla(d: LabelData, variant: LabelVariant = "normal"): Uint8Array {
  const l = labelLayout(d, variant);
  const font = l.font < 24 ? "2" : "3";
  const row = (yTop: number, h: number) => inch100(l.height - yTop - h);
  const text = (yTop: number, x: number, f: string, h: number, data: string) => `1${f}11000${n4(row(yTop, h))}${n4(inch100(x))}${pplaText(data)}${CR}`;
  const records: string[] = [];
  if (l.logo) records.push(text(12, 16, "4", 40, "IRONBOX"));
  for (const line of l.lines) records.push(text(line.y, line.x, font, l.font, line.text));
  const module = l.qr.mag >= 4 ? "2" : "1";
  records.push(`1W1d${module}${module}000${n4(row(l.qr.y, l.qr.size))}${n4(inch100(l.qr.x))}${qrData(labelQr(d))}${CR}${CR}`);
  // Text is ASCII after pplaText; the QR payload may carry UTF-8.
  return new TextEncoder().encode(`${STX}L${CR}D11${CR}${records.join("")}E${CR}`);
}
