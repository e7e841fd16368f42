import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeEscPosReceipt } from "./escpos";
import type { LabelData, LabelVariant } from "./label";
import { encodePpla } from "./ppla";
import { encodePplz } from "./pplz";
import type { ReceiptData } from "./receipt";

/**
 * Golden bytes: every layout, language and variant against committed files. A change to a
 * printout shows as a diff of drivers/printers/golden/ in review. UPDATE_GOLDEN=1 rewrites
 * them (look at the diff before committing); a missing file fails.
 */
const DIR = join(import.meta.dir, "golden");
const update = process.env.UPDATE_GOLDEN === "1";

const label: LabelData = {
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
const receipt: ReceiptData = {
  shop: "Ironbox Birkirkara",
  ticketId: 1042,
  date: "22-11-2026",
  customer: { name: "Ġużeppi Żammit", mobile: "79123456", address: "12, Triq il-Kbira, Birkirkara" },
  items: [
    { name: "Suit 2pc", pieces: "Jacket, Trousers", total: "€22.50", express: true },
    { name: "Shirt", quantity: 3, total: "€8.10" },
  ],
  showPrices: true,
  totals: { subtotal: "€25.93", vat: "€4.67", total: "€30.60", paid: "€10.00", due: "€20.60" },
  pickup: "29-11-2026",
  stamp: { agent: "Ironbox Birkirkara", employee: "Anna Vella", employeeId: 3 },
};

const cases: [string, () => Uint8Array][] = [];
for (const [lang, encode, ext] of [
  ["pplz", encodePplz, "zpl"],
  ["ppla", encodePpla, "ppla"],
] as const) {
  for (const v of ["normal", "smaller", "nologo"] as LabelVariant[]) cases.push([`${lang}-${v}.${ext}`, () => encode(label, v)]);
  cases.push([`${lang}-mini.${ext}`, () => encode({ ...label, mini: true, action: "Dry Cleaning" })]);
}
cases.push(["escpos-80mm.bin", () => encodeEscPosReceipt(receipt, "80mm")], ["escpos-58mm.bin", () => encodeEscPosReceipt(receipt, "58mm")]);

for (const [file, make] of cases) {
  test(`golden bytes: ${file}`, () => {
    const path = join(DIR, file);
    const bytes = Buffer.from(make());
    if (update) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(path, bytes);
    }
    expect(existsSync(path)).toBe(true);
    expect(bytes.equals(readFileSync(path))).toBe(true);
  });
}
