import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeEscPosReceipt } from "./escpos";
import { SAMPLE_LABEL, SAMPLE_RECEIPT } from "./fixtures";
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

const label: LabelData = SAMPLE_LABEL;
const receipt: ReceiptData = { ...SAMPLE_RECEIPT, customer: { ...SAMPLE_RECEIPT.customer, name: "Ġużeppi Żammit" } };

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
