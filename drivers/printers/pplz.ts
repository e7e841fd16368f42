import { LABEL_WIDTH_DOTS, type LabelData, type LabelVariant, labelLines, labelQr } from "./label";

/**
 * PPLZ: Argox's ZPL II emulation. Field data goes through ^FH so '^' and '~' (which would end
 * or start a command) travel as _5E and _7E; '_' itself as _5F. ^CI28 selects UTF-8.
 */
export const zplEscape = (s: string) => s.replace(/[_^~]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Encodes one item label as a complete ZPL job (^XA … ^XZ). Pure: bytes out, no I/O. */
export function encodePplz(d: LabelData, variant: LabelVariant = "normal"): Uint8Array {
  const small = variant === "smaller" || d.mini;
  const font = small ? 22 : 30;
  const lineGap = small ? 28 : 38;
  const top = variant === "nologo" || small ? 16 : 60;
  const out: string[] = ["^XA", "^CI28", `^PW${LABEL_WIDTH_DOTS}`, "^LH0,0"];
  if (variant === "normal" && !d.mini) out.push(`^FO16,12^A0N,40,40^FH^FD${zplEscape("IRONBOX")}^FS`);
  labelLines(d).forEach((line, i) => out.push(`^FO16,${top + i * lineGap}^A0N,${font},${font}^FH^FD${zplEscape(line)}^FS`));
  // QR at the right: model 2, magnification 4 (3 when small), error correction M.
  out.push(`^FO${small ? 400 : 370},${top}^BQN,2,${small ? 3 : 4}^FH^FDMA,${zplEscape(labelQr(d))}^FS`);
  out.push("^XZ");
  return new TextEncoder().encode(`${out.join("\n")}\n`);
}
