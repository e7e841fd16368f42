import { LABEL_WIDTH_DOTS, type LabelData, type LabelVariant, labelLayout, labelQr } from "./label";

/**
 * PPLZ: Argox's ZPL II emulation. Field data goes through ^FH so '^' and '~' (which would end
 * or start a command) travel as _5E and _7E; '_' itself as _5F. ^CI28 selects UTF-8.
 */
export const zplEscape = (s: string) => s.replace(/[_^~]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Encodes one item label as a complete ZPL job (^XA … ^XZ). Pure: bytes out, no I/O. */
export function encodePplz(d: LabelData, variant: LabelVariant = "normal"): Uint8Array {
  const l = labelLayout(d, variant);
  const out: string[] = ["^XA", "^CI28", `^PW${LABEL_WIDTH_DOTS}`, `^LL${l.height}`, "^LH0,0"];
  if (l.logo) out.push(`^FO16,12^A0N,40,40^FH^FD${zplEscape("IRONBOX")}^FS`);
  for (const line of l.lines) out.push(`^FO${line.x},${line.y}^A0N,${l.font},${l.font}^FH^FD${zplEscape(line.text)}^FS`);
  // QR: model 2, error correction M, magnification per layout.
  out.push(`^FO${l.qr.x},${l.qr.y}^BQN,2,${l.qr.mag}^FH^FDMA,${zplEscape(labelQr(d))}^FS`);
  out.push("^XZ");
  return new TextEncoder().encode(`${out.join("\n")}\n`);
}
