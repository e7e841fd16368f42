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
  const r = escPosText(encodeEscPosReceipt({ ...data, showPrices: false, payments: [] }, "58mm"));
  expect(r.lines.every((l) => [...l].length <= 19)).toBe(true);
  expect(r.lines.join("\n")).not.toContain("€");
  expect(r.lines).toContain("* Suit 2pc");
});

test("control characters in names and items cannot add lines or commands to a receipt", () => {
  const evil: ReceiptData = {
    ...data,
    shop: "Shop\x1b@\x1dV\x00",
    customer: { name: "Joe\r\nE\r\n\x1bd\x05", mobile: "79\n123", address: "Triq\x0a\x1d(k x" },
    items: [{ name: "Suit\n\x1b\x70\x00\x19\xfa", total: "€1.00" }],
    stamp: { ...data.stamp, employee: "Ann\x9b2J" },
  };
  const bytes = encodeEscPosReceipt(evil, "80mm");
  const clean = encodeEscPosReceipt(
    { ...evil, shop: "Shop", customer: { name: "Joe", mobile: "79 123", address: "Triq x" }, items: [{ name: "Suit", total: "€1.00" }], stamp: data.stamp },
    "80mm",
  );
  const count = (b: Uint8Array, x: number) => b.filter((c) => c === x).length;
  // As many commands and line feeds as the same receipt with harmless text: the text added none.
  for (const c of [0x1b, 0x1d, 0x0a, 0x00]) expect([c, count(bytes, c)]).toEqual([c, count(clean, c)]);
  const r = escPosText(bytes);
  expect(r.lines[0]).toBe("Shop @ V ");
  expect(r.lines).toContain("Joe  E   d ");
  expect(r.lines.some((l) => l.startsWith("Suit  p  ? "))).toBe(true);
  expect(r.cut).toBe(true);
});

test("the receipt lists each payment with its tender, cash with what was tendered and the change, refunds with their reason", () => {
  const r = escPosText(encodeEscPosReceipt(data, "80mm"));
  const at = (line: string) => r.lines.indexOf(line);
  expect(r.lines).toContain("Payments");
  expect(r.lines).toContain(twoColumns("Cash 22/11/2026 10:05", "€8.00", 33));
  expect(r.lines[at(twoColumns("Cash 22/11/2026 10:05", "€8.00", 33)) + 1]).toBe("  Tendered €12.00");
  expect(r.lines[at(twoColumns("Cash 22/11/2026 10:05", "€8.00", 33)) + 2]).toBe("  Change €4.00");
  expect(r.lines).toContain(twoColumns("Card 22/11/2026 10:06", "€4.00", 33));
  // A card payment has no tendered amount: the next line is the refund (its date below: it does not fit beside it).
  const card = at(twoColumns("Card 22/11/2026 10:06", "€4.00", 33));
  expect(r.lines.slice(card + 1, card + 3)).toEqual([twoColumns("Refund cash", "-€2.00", 33), "  23/11/2026 09:30"]);
  expect(r.lines.join("\n")).toContain("  Reason: Button missing on\n  collection");
  // After the totals, before the conditions.
  expect(at("Payments")).toBeGreaterThan(r.lines.findIndex((l) => l.startsWith("Due")));
  expect(at("Payments")).toBeLessThan(r.lines.findIndex((l) => l.startsWith("Goods unclaimed")));
});

test("on 58 mm paper a payment's date goes below its tender, every line within 19 characters; no payments, no section", () => {
  const r = escPosText(encodeEscPosReceipt(data, "58mm"));
  expect(r.lines.every((l) => [...l].length <= 19)).toBe(true);
  const cash = r.lines.indexOf(twoColumns("Cash", "€8.00", 19));
  expect(r.lines.slice(cash, cash + 4)).toEqual([twoColumns("Cash", "€8.00", 19), "  22/11/2026 10:05", "  Tendered €12.00", "  Change €4.00"]);
  expect(r.lines).toContain(twoColumns("Refund cash", "-€2.00", 19));
  expect(r.lines).toContain("  Reason: Button");
  const none = escPosText(encodeEscPosReceipt({ ...data, payments: [] }, "80mm"));
  expect(none.lines).not.toContain("Payments");
  // Early states print no prices, but what the customer paid still prints.
  const early = escPosText(encodeEscPosReceipt({ ...data, showPrices: false }, "80mm")).lines;
  expect(early.some((l) => l.startsWith("TOTAL"))).toBe(false);
  expect(early).toContain("  Tendered €12.00");
});
