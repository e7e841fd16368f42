import { itemCode } from "../../appliance/domain/scancodes";

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
}

export type LabelVariant = "normal" | "smaller" | "nologo";

/** Spec §9: labels are 550 dots wide and their lines are cut to 37 characters. */
export const LABEL_WIDTH_DOTS = 550;
export const LABEL_LINE = 37;

export const cut = (s: string, n = LABEL_LINE) => [...s].slice(0, n).join("");

/** The label's text lines, top to bottom; shared by every label language. */
export function labelLines(d: LabelData): string[] {
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
export const labelQr = (d: LabelData) => itemCode({ itemId: d.itemId, desc: d.description, ticketId: d.ticketId, piece: d.piece });

/**
 * Where things go on a label, in dots (203 dpi, 8 dots/mm), shared by PPLZ and PPLA. Lines
 * may use the full 37 characters, so the QR goes under the text (right-aligned), except on
 * mini labels, whose three short lines leave room at the right. `qrModules` allows for a
 * version-4 code (33 modules), enough for any label payload.
 */
export function labelLayout(d: LabelData, variant: LabelVariant) {
  const kind = d.mini ? "mini" : variant;
  const spec = {
    normal: { height: 400, font: 26, gap: 32, top: 56, mag: 4 },
    nologo: { height: 400, font: 26, gap: 32, top: 16, mag: 4 },
    smaller: { height: 240, font: 20, gap: 24, top: 12, mag: 3 },
    mini: { height: 160, font: 22, gap: 26, top: 12, mag: 3 },
  }[kind];
  const lines = labelLines(d);
  const qrModules = 33;
  const qrSize = qrModules * spec.mag;
  const qr = kind === "mini" ? { x: LABEL_WIDTH_DOTS - qrSize - 8, y: spec.top } : { x: LABEL_WIDTH_DOTS - qrSize - 8, y: spec.top + lines.length * spec.gap + 4 };
  return { kind, logo: kind === "normal", lines: lines.map((text, i) => ({ text, x: 16, y: spec.top + i * spec.gap })), font: spec.font, height: spec.height, qr: { ...qr, mag: spec.mag, size: qrSize } };
}
