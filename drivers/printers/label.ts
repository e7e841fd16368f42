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
  mini?: boolean;
}

export type LabelVariant = "normal" | "smaller" | "nologo";

/** Spec §9: labels are 550 dots wide and their lines are cut to 37 characters. */
export const LABEL_WIDTH_DOTS = 550;
export const LABEL_LINE = 37;

export const cut = (s: string, n = LABEL_LINE) => [...s].slice(0, n).join("");

/** The label's text lines, top to bottom; shared by every label language. */
export function labelLines(d: LabelData): string[] {
  const lines = [
    `T#${d.ticketId}  I#${d.itemId}${d.express ? "  EXPRESS" : ""}`,
    cut(`${[...d.description].slice(0, 12).join("")} - ${d.piece}`),
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
