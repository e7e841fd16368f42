import type { LabelData, LabelVariant } from "./label";
import type { ReceiptData } from "./receipt";
import type { ZReportData } from "./zReport";

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
  // €12 handed over for €8 in cash, €4 by card, €2 of the cash given back (issue 24).
  payments: [
    { tender: "cash", amount: "€8.00", when: "22/11/2026 10:05", tendered: "€12.00", change: "€4.00" },
    { tender: "card", amount: "€4.00", when: "22/11/2026 10:06" },
    { tender: "cash", amount: "-€2.00", when: "23/11/2026 09:30", refund: true, reason: "Button missing on collection" },
  ],
};

/** One day's drawer, closed with a euro too many in cash. */
export const SAMPLE_Z: ZReportData = {
  shop: "Ironbox Birkirkara",
  day: "22/11/2026",
  tenders: [
    { label: "Cash", expected: "€46.20", counted: "€47.20", variance: "€1.00" },
    { label: "Card", expected: "€30.60", counted: "€30.60", variance: "€0.00" },
    { label: "Other", expected: "€0.00", counted: "€0.00", variance: "€0.00" },
  ],
  payments: 7,
  refunds: 1,
  movedToNextDay: 0,
  byEmployee: [
    { name: "Anna Vella", role: "employee", cash: "€40.20" },
    { name: "Daniel Micallef", role: "driver", cash: "€6.00" },
  ],
  closed: { at: "22/11/2026 19:02", note: "One euro over" },
  printedAt: "22/11/2026 19:03",
  stamp: { agent: "Ironbox Birkirkara", employee: "Maria Borg", employeeId: 2 },
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
