import { expect, test } from "bun:test";
import { parseScan } from "../../appliance/domain/scancodes";
import { encodeEscPosReceipt, escPosText } from "./escpos";
import { SAMPLE_RECEIPT } from "./fixtures";
import { RECEIPT_CONDITIONS, type ReceiptData, twoColumns, wrap } from "./receipt";

const data: ReceiptData = SAMPLE_RECEIPT;

test("an 80 mm receipt: lines within 33 characters, totals with VAT, conditions, stamp, QR of the ticket, cut", () => {
  const r = escPosText(encodeEscPosReceipt(data, "80mm"));
  expect(r.lines.every((l) => [...l].length <= 33)).toBe(true);
  expect(r.lines).toContain("* Suit 2pc                 €22.50");
  expect(r.lines).toContain("3 x Shirt                   €8.10");
  expect(r.lines).toContain(twoColumns("VAT 18%", "€4.67", 33));
  expect(r.lines).toContain("Employee ID 3");
  for (const c of RECEIPT_CONDITIONS) expect(r.lines.join(" ")).toContain(wrap(c, 33)[0]!);
  expect(parseScan(r.qr!)).toEqual({ type: "ticket", TicketID: 1042 });
  expect(r.cut).toBe(true);
});

test("58 mm paper trims to 19 characters; early states print no prices", () => {
  const r = escPosText(encodeEscPosReceipt({ ...data, showPrices: false }, "58mm"));
  expect(r.lines.every((l) => [...l].length <= 19)).toBe(true);
  expect(r.lines.join("\n")).not.toContain("€");
  expect(r.lines).toContain("* Suit 2pc");
});
