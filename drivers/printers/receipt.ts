import { ticketCode } from "../../appliance/domain/scancodes";
import { printable } from "./text";

/** Spec §9 receipt conditions, printed on every receipt and ticket PDF. */
export const RECEIPT_CONDITIONS = [
  "Goods unclaimed with charges unpaid after 3 months may be sold or disposed of.",
  "Garments are accepted at the owner's risk.",
  "No responsibility for button or sequin damage.",
] as const;

/** Paper widths in characters (spec §9: lines trimmed to 33 on 80 mm, 19 on 58 mm). */
export const RECEIPT_WIDTH = { "80mm": 33, "58mm": 19 } as const;
export type Paper = keyof typeof RECEIPT_WIDTH;

/** What a receipt shows, independent of PDF or ESC/POS. Money already formatted. */
export interface ReceiptData {
  shop: string;
  ticketId: number;
  date: string;
  customer: { name: string; mobile?: string; address?: string };
  items: { name: string; pieces?: string; quantity?: number; total: string; express?: boolean }[];
  /** Prices are printed only when the state allows (spec §4). */
  showPrices: boolean;
  totals: { subtotal: string; vat: string; total: string; paid: string; due: string };
  pickup?: string;
  delivery?: string;
  /** The signed-in agent and employee, and the employee's ID (spec §6). */
  stamp: { agent: string; employee: string; employeeId: number };
  /** The ticket's payments and refunds, oldest first (issue 24); printed with the totals. */
  payments?: ReceiptPayment[];
}

/**
 * One tender taken (the rows of one payment over the ticket's items, added up) or one refund.
 * Money already formatted; `when` is DD/MM/YYYY HH:mm in the shop's zone.
 */
export interface ReceiptPayment {
  tender: "cash" | "card" | "other" | "account" | "balance";
  amount: string;
  when: string;
  /** Cash handed over, and the change given back. */
  tendered?: string;
  change?: string;
  /** A refund (amount negative) and why. */
  refund?: boolean;
  reason?: string;
}

export const TENDER_LABEL = { cash: "Cash", card: "Card", other: "Other", account: "On account", balance: "Balance" } as const;

/** A payment's lines, shared by the ESC/POS receipt and the PDF: what, when, amount; cash tendered and change; a refund's reason. */
export function paymentLines(p: ReceiptPayment): { label: string; details: string[] } {
  const label = p.refund ? `Refund ${TENDER_LABEL[p.tender].toLowerCase()}` : TENDER_LABEL[p.tender];
  const details: string[] = [];
  if (p.tendered !== undefined) details.push(`Tendered ${p.tendered}`, `Change ${p.change ?? "€0.00"}`);
  if (p.refund) details.push(`Reason: ${p.reason ?? ""}`);
  return { label, details };
}

export const cutLine = (s: string, width: number) => [...s].slice(0, width).join("");

/** Left text and right amount on one line of `width` characters. */
export function twoColumns(left: string, right: string, width: number): string {
  const r = [...right];
  const room = Math.max(0, width - r.length - 1);
  const l = [...left].slice(0, room).join("");
  return l + " ".repeat(Math.max(1, width - [...l].length - r.length)) + right;
}

/** Word-wraps text to the paper width (conditions, addresses). */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!line) line = cutLine(word, width);
    else if ([...line].length + 1 + [...word].length <= width) line += ` ${word}`;
    else {
      out.push(line);
      line = cutLine(word, width);
    }
  }
  if (line) out.push(line);
  return out;
}

/** The receipt as lines of at most `width` characters; the QR comes after them. No line holds a control character (printable). */
export function receiptLines(d: ReceiptData, width: number): { lines: { text: string; bold?: boolean; center?: boolean }[]; qr: string } {
  const lines = layout(d, width);
  return { lines: lines.map((l) => ({ ...l, text: printable(l.text) })), qr: ticketCode(d.ticketId) };
}

function layout(d: ReceiptData, width: number): { text: string; bold?: boolean; center?: boolean }[] {
  const L: { text: string; bold?: boolean; center?: boolean }[] = [];
  const rule = "-".repeat(width);
  L.push({ text: cutLine(d.shop, width), bold: true, center: true });
  L.push({ text: cutLine(`Ticket #${d.ticketId}`, width), bold: true, center: true });
  L.push({ text: cutLine(d.date, width), center: true });
  L.push({ text: rule });
  L.push({ text: cutLine(d.customer.name, width), bold: true });
  if (d.customer.mobile) L.push({ text: cutLine(d.customer.mobile, width) });
  if (d.customer.address) for (const l of wrap(d.customer.address, width)) L.push({ text: l });
  L.push({ text: rule });
  for (const it of d.items) {
    const name = `${it.express ? "* " : ""}${it.quantity && it.quantity > 1 ? `${it.quantity} x ` : ""}${it.name}`;
    L.push({ text: d.showPrices ? twoColumns(name, it.total, width) : cutLine(name, width) });
    if (it.pieces) L.push({ text: cutLine(`  ${it.pieces}`, width) });
  }
  L.push({ text: rule });
  if (d.showPrices) {
    L.push({ text: twoColumns("Subtotal", d.totals.subtotal, width) });
    L.push({ text: twoColumns("VAT 18%", d.totals.vat, width) });
    L.push({ text: twoColumns("TOTAL", d.totals.total, width), bold: true });
    L.push({ text: twoColumns("Paid", d.totals.paid, width) });
    L.push({ text: twoColumns("Due", d.totals.due, width), bold: true });
    L.push({ text: rule });
  }
  // What was paid prints in every state: it is the customer's money, not the items' prices (spec §4).
  if (d.payments?.length) {
    L.push({ text: "Payments", bold: true });
    for (const p of d.payments) {
      const { label, details } = paymentLines(p);
      // The date and time go beside the tender where they fit (80 mm), below it on 58 mm paper.
      const head = `${label} ${p.when}`;
      if ([...head].length + 1 + [...p.amount].length <= width) L.push({ text: twoColumns(head, p.amount, width) });
      else L.push({ text: twoColumns(label, p.amount, width) }, ...wrap(p.when, width - 2).map((l) => ({ text: `  ${l}` })));
      for (const x of details) for (const l of wrap(x, width - 2)) L.push({ text: `  ${l}` });
    }
    L.push({ text: rule });
  }
  if (d.pickup) L.push({ text: cutLine(`Pickup ${d.pickup}`, width) });
  if (d.delivery) L.push({ text: cutLine(`Delivery ${d.delivery}`, width) });
  for (const c of RECEIPT_CONDITIONS) for (const l of wrap(c, width)) L.push({ text: l });
  L.push({ text: rule });
  L.push({ text: cutLine(`${d.stamp.agent} / ${d.stamp.employee}`, width) });
  L.push({ text: cutLine(`Employee ID ${d.stamp.employeeId}`, width) });
  return L;
}
