import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeEscPosReceipt } from "./escpos";
import { SAMPLE_LABEL, SAMPLE_RECEIPT, SAMPLE_Z } from "./fixtures";
import type { LabelData, LabelVariant } from "./label";
import { encodePpla } from "./ppla";
import { encodePplz } from "./pplz";
import type { ReceiptData } from "./receipt";
import { encodeEscPosZReport } from "./zReport";

/**
 * Golden bytes: every label language and variant, and both receipt widths, against committed
 * files in drivers/printers/golden/, so any change to a printout shows as a diff in review.
 * A missing file fails. `UPDATE_GOLDEN=1 bun test drivers/printers/golden.test.ts` rewrites
 * them; read the .zpl/.ppla diffs (they are text) before committing.
 */
const DIR = join(import.meta.dir, "golden");
const update = process.env.UPDATE_GOLDEN === "1";

// A description longer than 12 characters with '^' and '~' inside the 12 that print, Maltese letters, express.
const label: LabelData = { ...SAMPLE_LABEL, description: "Suit^2pc~navy wool", customer: "Ġużeppi Żammit" };
const receipt: ReceiptData = { ...SAMPLE_RECEIPT, customer: { ...SAMPLE_RECEIPT.customer, name: "Ġużeppi Żammit" } };

const cases: [string, () => Uint8Array][] = [];
for (const [lang, encode, ext] of [
  ["pplz", encodePplz, "zpl"],
  ["ppla", encodePpla, "ppla"],
] as const) {
  for (const v of ["normal", "smaller", "nologo"] as LabelVariant[]) cases.push([`${lang}-${v}.${ext}`, () => encode(label, v)]);
  cases.push([`${lang}-mini.${ext}`, () => encode({ ...label, mini: true, action: "Dry Cleaning" })]);
  cases.push([`${lang}-rack.${ext}`, () => encode({ ...label, rack: "Rack A3^~" })]);
}
cases.push(["escpos-80mm.bin", () => encodeEscPosReceipt(receipt, "80mm")], ["escpos-58mm.bin", () => encodeEscPosReceipt(receipt, "58mm")]);
cases.push(["escpos-z-80mm.bin", () => encodeEscPosZReport(SAMPLE_Z, "80mm")], ["escpos-z-58mm.bin", () => encodeEscPosZReport(SAMPLE_Z, "58mm")]);

/** Text formats compare as text (a readable diff, control characters shown); ESC/POS as hex lines. */
const show = (file: string, b: Uint8Array) =>
  file.endsWith(".bin")
    ? Buffer.from(b)
        .toString("hex")
        .replace(/(.{64})/g, "$1\n")
    : new TextDecoder().decode(b).replace(/[\x00-\x09\x0b-\x1f]/g, (c) => `<${c.charCodeAt(0).toString(16).padStart(2, "0")}>`);

for (const [file, make] of cases) {
  test(`golden bytes: ${file}`, () => {
    const path = join(DIR, file);
    const bytes = make();
    if (update) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(path, bytes);
    }
    if (!existsSync(path)) throw new Error(`${path} is missing: run with UPDATE_GOLDEN=1 and check what it writes`);
    const golden = readFileSync(path);
    expect(show(file, bytes)).toBe(show(file, golden));
    expect(Buffer.from(bytes).equals(golden)).toBe(true);
  });
}

test("golden files and cases match one for one", () => {
  const files = new Bun.Glob("*").scanSync(DIR);
  expect([...files].sort()).toEqual(cases.map(([f]) => f).sort());
});
