import { LABEL_DPI, type LabelData, type LabelVariant, labelLayout, labelQr, QR_SHIFT } from "./label";

/*
 * PPLA: Argox's Datamax-DPL-like language. Built from the Datamax-O'Neil DPL programmer's
 * manual (Generating Label Formats; Appendix C fonts; Appendix G "W1d / W1D: QR Code"), as
 * PPLA takes DPL's records; Argox's own manual was not at hand. A job is
 *
 *   <STX>L<CR>            enter label formatting
 *   D11<CR>               dot size 1 x 1
 *   n<CR>                 inch mode: rows, columns and QR cells in hundredths of an inch
 *                         (a driver may have left the printer in metric mode, <STX>m)
 *   1211000RRRRCCCCtext<CR>          one text record per line:
 *       rotation(1) font(1) hmul(1) vmul(1) 000 row(4) column(4) data, rows counted up
 *       from the bottom left of the label to the bottom of the field
 *   1W1dMM000RRRRCCCCpayload<CR><CR> the QR: W1d is "automatic formatting" (model 2,
 *       ECC M, automatic mask and data mode), cell size MM in hundredths of an inch,
 *       its data ended by two CRs
 *   E<CR>                 end formatting, print one
 *
 * Text uses internal font 2 (18 x 10 dots, 12-dot pitch at 203 dpi, so 37 characters take
 * 444 of the 550 dots); fonts 3 to 6 have no lower case, so only the all-caps logo uses
 * font 4 (36 dots high). The layout is labelLayout's, turned from dots-from-the-top into
 * hundredths of an inch from the bottom (about one dot of rounding).
 *
 * CHECK THE FIRST PPLA LABEL ON A REAL ARGOX PRINTER before relying on it (STACK-NOTES):
 * nothing here has printed yet; the tests check the records against the manual's grammar,
 * not a printer. It assumes the printer's standard control codes (STX, SOH, CR): in DPL's
 * "alternate" control-code setting '^' and '~' would be command characters.
 */
const STX = "\x02";
const CR = "\r";

/** DPL internal bitmapped fonts at 203 dpi (DPL manual Table C-2), the two used here. */
export const PPLA_FONTS = {
  text: { id: "2", height: 18, width: 10, spacing: 2 },
  logo: { id: "4", height: 36, width: 18, spacing: 3 },
} as const;

const inch100 = (dots: number) => Math.round((dots / LABEL_DPI) * 100);
const n4 = (n: number) => String(Math.max(0, Math.min(9999, n))).padStart(4, "0");

/**
 * Text for a record's data: nothing in it can end the record or start a command. Control
 * characters (CR, LF, STX, SOH…) become spaces. The internal fonts print ASCII, so accents
 * go (Ġużeppi → Guzeppi), ħ/Ħ become h/H and anything else becomes one '?' per character.
 */
export function pplaText(s: string): string {
  return s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/ħ/g, "h")
    .replace(/Ħ/g, "H")
    .replace(/[\x00-\x1f\x7f]/g, " ")
    .replace(/[^\x20-\x7e]/gu, "?");
}

/** QR data travels as UTF-8 (W1d takes 8-bit bytes); only control characters, which could end the record, become spaces. */
export const pplaQrData = (s: string) => s.replace(/[\x00-\x1f\x7f]/g, " ");

/** Encodes one item label as a complete PPLA job. Pure: bytes out, no I/O. */
export function encodePpla(d: LabelData, variant: LabelVariant = "normal"): Uint8Array {
  const l = labelLayout(d, variant);
  const row = (yTop: number, h: number) => n4(inch100(l.height - yTop - h));
  const col = (x: number) => n4(inch100(x));
  const text = (yTop: number, x: number, f: { id: string; height: number }, data: string) =>
    `1${f.id}11000${row(yTop, f.height)}${col(x)}${pplaText(data)}${CR}`;

  const records: string[] = [];
  if (l.logo) records.push(text(12, 16, PPLA_FONTS.logo, "IRONBOX"));
  for (const line of l.lines) records.push(text(line.y, line.x, PPLA_FONTS.text, line.text));
  // Where a Zebra draws the PPLZ label's QR (QR_SHIFT below its field origin), so both look alike.
  const cell = String(l.qr.mag / 2); // hundredths of an inch: 2 dots each
  records.push(`1W1d${cell}${cell}000${row(l.qr.y + QR_SHIFT, l.qr.size)}${col(l.qr.x)}${pplaQrData(labelQr(d))}${CR}${CR}`);
  return new TextEncoder().encode(`${STX}L${CR}D11${CR}n${CR}${records.join("")}E${CR}`);
}
