import type { LabelData, LabelVariant } from "./label";
import type { ReceiptData } from "./receipt";

/** One label and one receipt that every printer test uses: long description, ^ and ~, Maltese letters, express. */
export const SAMPLE_LABEL: LabelData = {
  ticketId: 1042,
  itemId: 88123,
  description: "Suit 2pc navy^wool~",
  piece: "Jacket",
  agent: "Ironbox Birkirkara",
  date: "22/11/2026",
  deliveryDate: "29/11/2026",
  tallies: [
    { label: "Laundry", sorted: 0, total: 3 },
    { label: "Dry Cleaning", sorted: 1, total: 2 },
    { label: "Carpets", sorted: 0, total: 0 },
  ],
  customer: "Ġużeppi Żammit",
  express: true,
};

export const SAMPLE_RECEIPT: ReceiptData = {
  shop: "Ironbox Birkirkara",
  ticketId: 1042,
  date: "22-11-2026",
  customer: { name: "Joseph Camilleri", mobile: "79123456", address: "12, Triq il-Kbira, Birkirkara" },
  items: [
    { name: "Suit 2pc", pieces: "Jacket, Trousers", total: "€22.50", express: true },
    { name: "Shirt", quantity: 3, total: "€8.10" },
  ],
  showPrices: true,
  totals: { subtotal: "€25.93", vat: "€4.67", total: "€30.60", paid: "€10.00", due: "€20.60" },
  pickup: "29-11-2026",
  stamp: { agent: "Ironbox Birkirkara", employee: "Anna Vella", employeeId: 3 },
};

/** Pieces that make a label's QR payload a version 3, 4 and 5 code (up to 42, 62 and 84 bytes at ECC M). */
export const QR_PIECES = { v3: "Jacket", v4: "Jacket with matching waistco", v5: "Curtains lined, large pair with hooks" } as const;

/** Every label layout for one label: the three variants and a mini label. */
export const labelKinds = (label: LabelData): [string, LabelData, LabelVariant][] => [
  ["normal", label, "normal"],
  ["smaller", label, "smaller"],
  ["no-logo", label, "nologo"],
  ["mini", { ...label, mini: true, action: "Dry Cleaning" }, "normal"],
];
