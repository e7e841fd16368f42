/**
 * The accounts' files (issue 34): the invoice PDF, and the statement and aged report as CSV.
 * Text from people (names, VAT numbers, reasons) is made safe for each medium: CSV cells are
 * quoted and formula-neutralised as every report's are (reports/cells.ts); the PDF draws text,
 * it never interprets it, and strips control characters that would garble a line.
 */
import { renderPdf } from "../../../drivers/pdf/document";
import { displayDate, euroFromEuros } from "../../domain/format";
import type { ShopContact } from "../agents/reads";
import { csvField, neutralise } from "../reports/cells";
import type { Aged, Invoice, Statement } from "./model";

/** Control characters (but for newlines) out of text drawn on a PDF. */
const clean = (s: string) => s.replace(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, "");

export async function invoicePdf(inv: Invoice, shop: ShopContact): Promise<{ pdf: Buffer; filename: string }> {
  const pdf = await renderPdf(
    (doc) => {
      const left = doc.page.margins.left;
      const right = doc.page.width - doc.page.margins.right;
      const widths = [0.52, 0.12, 0.12, 0.12, 0.12];
      const row = (cells: string[], bold = false) => {
        const y = doc.y;
        let x = left;
        doc.font(bold ? "bold" : "regular").fontSize(9);
        let bottom = y;
        cells.forEach((c, i) => {
          const w = (right - left) * widths[i]!;
          doc.text(c, x, y, { width: w - 4, align: i === 0 ? "left" : "right" });
          bottom = Math.max(bottom, doc.y);
          x += w;
        });
        doc.x = left;
        doc.y = bottom;
        doc.moveDown(0.2);
      };
      doc.font("bold").fontSize(16).text(clean(shop.name));
      doc.font("regular").fontSize(10).text([shop.landline, shop.mobile].filter(Boolean).map(clean).join(" · "));
      doc.moveDown(0.8);
      doc.font("bold").fontSize(14).text(`Invoice ${inv.number}`);
      doc.font("regular").fontSize(10);
      doc.text(`Date ${displayDate(inv.issued_on)} · Due ${displayDate(inv.due_on)}`);
      doc.text(`Period ${displayDate(inv.period_from)} to ${displayDate(inv.period_to)}`);
      doc.moveDown(0.5);
      doc.font("bold").text(`Bill to: ${clean(inv.account_name)}`);
      doc.font("regular").text(inv.vat_number ? `VAT number ${clean(inv.vat_number)}` : "VAT number: none given");
      doc.moveDown(0.8);
      row(["Ticket / item", "VAT %", "Net", "VAT", "Gross"], true);
      for (const l of inv.lines) row([clean(l.description), `${l.vat_rate}`, euroFromEuros(l.net), euroFromEuros(l.vat), euroFromEuros(l.gross)]);
      doc.moveDown(0.5);
      for (const v of inv.vat) row([`VAT at ${v.rate} %`, "", euroFromEuros(v.net), euroFromEuros(v.vat), euroFromEuros(v.gross)], true);
      row(["Total", "", euroFromEuros(inv.net), euroFromEuros(inv.vat_total), euroFromEuros(inv.total)], true);
      if (inv.credited) row([`Credit notes ${inv.credit_notes.map((c) => c.number).join(", ")}`, "", "", "", `-${euroFromEuros(inv.credited)}`]);
      if (inv.paid) row(["Paid", "", "", "", `-${euroFromEuros(inv.paid)}`]);
      row(["Still due", "", "", "", euroFromEuros(inv.open)], true);
    },
    { title: `Invoice ${inv.number}`, author: shop.name },
  );
  return { pdf, filename: `Invoice ${inv.number}.pdf` };
}

const text = (s: string) => csvField(neutralise(s));
/** Euros as "1234.50": a number a spreadsheet adds up (never neutralised, as the reports' money). */
const amount = (eur: number) => (Math.round(eur * 100) / 100).toFixed(2);
/** Days as the reports print them (DD-MM-YYYY). */
const day = (d: string) => `${d.slice(8, 10)}-${d.slice(5, 7)}-${d.slice(0, 4)}`;

/** Lines of CSV as a stream, a few at a time, as the reports stream theirs. */
export function csvStream(lines: Iterable<string>): ReadableStream<Uint8Array> {
  const it = lines[Symbol.iterator]();
  const enc = new TextEncoder();
  return new ReadableStream({
    pull(ctrl) {
      let chunk = "";
      for (let i = 0; i < 500; i++) {
        const n = it.next();
        if (n.done) {
          if (chunk) ctrl.enqueue(enc.encode(chunk));
          ctrl.close();
          return;
        }
        chunk += `${n.value}\r\n`;
      }
      ctrl.enqueue(enc.encode(chunk));
    },
  });
}

export function* statementCsv(s: Statement): Generator<string> {
  yield "Date,Kind,Reference,Amount,Balance";
  yield `${day(s.from)},opening balance,,,${amount(s.opening_balance)}`;
  for (const l of s.lines) yield [day(l.date), l.kind.replace("_", " "), text(l.reference), amount(l.amount), amount(l.balance)].join(",");
  yield `${day(s.to)},closing balance,,,${amount(s.closing_balance)}`;
  yield `${day(s.to)},not invoiced yet,,,${amount(s.not_invoiced)}`;
}

export function* agedCsv(a: Aged): Generator<string> {
  // The shop by name (HQ's report lists every shop's, and at HQ every site's: "Mosta (mosta)").
  yield "Account,Shop,Not invoiced,0-30 days,31-60 days,61-90 days,90+ days,Balance";
  const cells = (r: Aged["totals"]) => [r.not_invoiced, r.d0_30, r.d31_60, r.d61_90, r.d90_plus, r.balance].map(amount);
  for (const r of a.accounts) yield [text(r.name), text(r.site ? `${r.agent_name} (${r.site})` : r.agent_name), ...cells(r)].join(",");
  yield ["Total", "", ...cells(a.totals)].join(",");
}
