import { rackCode } from "../../appliance/domain/racks";
import { itemCode } from "../../appliance/domain/scancodes";
import { printable } from "./text";

/** What an item label shows (spec §2/§9), independent of the printer language. */
export interface LabelData {
  ticketId: number;
  itemId: number;
  description: string;
  piece: string;
  agent: string;
  /** Display dates DD/MM/YYYY. */
  date: string;
  deliveryDate?: string;
  /** Sorted-of-total tallies of the Laundry, Dry Cleaning and Carpets actions of the ticket. */
  tallies: { label: string; sorted: number; total: number }[];
  customer?: string;
  express?: boolean;
  /** A mini label: one per action amount (spec §9), small, naming its action. */
  mini?: boolean;
  action?: string;
  /** A rack label (issue 25): the rack's name and its rack code instead of an item's. */
  rack?: string;
}

export type LabelVariant = "normal" | "smaller" | "nologo";

/** Spec §9: labels are 550 dots wide and their lines are cut to 37 characters. */
export const LABEL_WIDTH_DOTS = 550;
export const LABEL_LINE = 37;

export const cut = (s: string, n = LABEL_LINE) => [...s].slice(0, n).join("");

/** The label's data with control characters gone from every text (printable). */
function clean(d: LabelData): LabelData {
  const t = (s: string | undefined) => (s === undefined ? s : printable(s));
  return {
    ...d,
    description: printable(d.description),
    piece: printable(d.piece),
    agent: printable(d.agent),
    date: printable(d.date),
    deliveryDate: t(d.deliveryDate),
    customer: t(d.customer),
    action: t(d.action),
    rack: t(d.rack),
    tallies: d.tallies.map((x) => ({ ...x, label: printable(x.label) })),
  };
}

/** The label's text lines, top to bottom; shared by every label language. */
export function labelLines(label: LabelData): string[] {
  const d = clean(label);
  if (d.rack !== undefined) return [cut(`RACK ${d.rack}`), cut(d.agent), "Scan this, then the bags"];
  const desc = [...d.description].slice(0, 12).join("");
  if (d.mini) return [`T#${d.ticketId}  I#${d.itemId}`, desc, cut(d.action ?? d.piece, 18)];
  const lines = [
    `T#${d.ticketId}  I#${d.itemId}${d.express ? "  EXPRESS" : ""}`,
    cut(`${desc} - ${d.piece}`),
    cut(d.agent),
    cut(`In ${d.date}${d.deliveryDate ? `  Out ${d.deliveryDate}` : ""}`),
  ];
  const tallies = d.tallies.filter((t) => t.total > 0).map((t) => `${t.label[0]} ${t.sorted}/${t.total}`);
  if (tallies.length) lines.push(cut(tallies.join("  ")));
  if (d.customer) lines.push(cut(d.customer));
  return lines;
}

/** The QR payload of a label: ticket id, item id, description (12) and piece (spec §9). */
export const labelQr = (d: LabelData) =>
  d.rack !== undefined
    ? rackCode(printable(d.rack))
    : itemCode({ itemId: d.itemId, desc: printable(d.description), ticketId: d.ticketId, piece: printable(d.piece) });

/** Label printers here are 203 dpi: 8 dots a millimetre, 2.03 dots a hundredth of an inch. */
export const LABEL_DPI = 203;

/**
 * Byte capacity of a model-2 QR code at error correction M, versions 1 to 15 (ISO/IEC 18004,
 * byte mode). Both printers pick the version themselves, in automatic mode; all-byte is what
 * a mixed-case payload comes to at most (numeric runs can only make it smaller), so this is
 * the size to leave room for.
 */
const QR_M_BYTES = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412];

/** Modules on a side of the QR code the printer will draw for this payload (21 for version 1, +4 a version). */
export function qrModules(payload: string): number {
  const bytes = new TextEncoder().encode(payload).length;
  const i = QR_M_BYTES.findIndex((cap) => bytes <= cap);
  return 17 + 4 * (i < 0 ? QR_M_BYTES.length : i + 1);
}

/**
 * ZPL printers draw a ^BQ QR code 10 dots below its ^FO (Zebra does; so does zpl-renderer-js,
 * which follows Labelary). Whether Argox's emulation does is unknown, so the layout leaves
 * room for the symbol anywhere from qr.y to qr.y + QR_SHIFT.
 */
export const QR_SHIFT = 10;

/**
 * Where things go on a label, in dots from the top left (203 dpi), shared by PPLZ and PPLA so
 * both print the same label. Lines may use the full 37 characters, so the QR goes under the
 * text (right-aligned), except on mini labels, whose three short lines leave room at the
 * right. The QR is sized for its payload (qrModules); if it would run off the bottom of the
 * label (a long piece name, or a long description standing in for one) its modules halve
 * rather than overprint the text. Magnifications are even because PPLA sizes QR cells in
 * hundredths of an inch, two dots each. With the longest text (six lines) a version-4 code
 * (payloads up to 62 bytes) keeps its full size on every variant, and a version-5 one (84)
 * still fits the smaller label at two dots a module.
 */
export function labelLayout(d: LabelData, variant: LabelVariant) {
  const kind = d.mini ? "mini" : variant;
  const spec = {
    normal: { height: 400, font: 26, gap: 32, top: 56, mag: 4 },
    nologo: { height: 400, font: 26, gap: 32, top: 16, mag: 4 },
    smaller: { height: 240, font: 20, gap: 22, top: 12, mag: 2 },
    mini: { height: 160, font: 22, gap: 26, top: 12, mag: 4 },
  }[kind];
  const lines = labelLines(d);
  const modules = qrModules(labelQr(d));
  const y = kind === "mini" ? spec.top : spec.top + lines.length * spec.gap + 4;
  let mag = spec.mag;
  while (mag > 2 && y + QR_SHIFT + modules * mag > spec.height - 4) mag -= 2;
  const size = modules * mag;
  return {
    kind,
    logo: kind === "normal",
    lines: lines.map((text, i) => ({ text, x: 16, y: spec.top + i * spec.gap })),
    font: spec.font,
    height: spec.height,
    qr: { x: LABEL_WIDTH_DOTS - size - 8, y, mag, modules, size },
  };
}
