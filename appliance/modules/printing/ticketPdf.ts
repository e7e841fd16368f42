import { eq } from "drizzle-orm";
import QRCode from "qrcode";
import type { Db } from "../../../db/client";
import { ticketReads } from "../tickets/reads";
import { renderPdf } from "../../../drivers/pdf/document";
import { paymentLines, RECEIPT_CONDITIONS, type ReceiptData, type ReceiptPayment } from "../../../drivers/printers/receipt";
import { businessDay } from "../../domain/dates";
import { stateOnConfirm } from "../../domain/states";
import { displayDateTime, euro, euroFromEuros, printDate } from "../../domain/format";
import { ticketCode } from "../../domain/scancodes";
import { vatSplit } from "../../domain/pricing";
import type { EmployeeCaller } from "../auth/caller";
import type { Payment } from "../money/model";
import type { Clock } from "../../platform/clock";
import type { PlaceService } from "../places/service";
import type { TicketService } from "../tickets/service";

/**
 * What a receipt or ticket PDF shows for a ticket (optionally only some of its items).
 * Prices appear only in states that allow them (spec §4, the ticket_states table).
 */
export async function receiptData(
  deps: { db: Db; clock: Clock; tickets: TicketService; places: PlaceService; payments: (caller: EmployeeCaller, ticketId: number) => Promise<Payment[]> },
  caller: EmployeeCaller,
  id: number,
  itemIds?: number[],
  opts: { confirming?: boolean } = {},
): Promise<ReceiptData> {
  const t = await deps.tickets.view(caller, id);
  // Printed as the confirm that commits with its print job leaves the ticket.
  const confirming = opts.confirming && !t.confirmed_at;
  const stateName = confirming ? stateOnConfirm(t) : t.state;
  const state = await ticketReads(deps.db).state(stateName);
  const address = t.customer.address_id ? await deps.places.getAddress(t.customer.address_id) : null;
  const items = t.ticket_sub_categories.filter((i) => !itemIds?.length || itemIds.includes(i.id));
  const split = vatSplit(t.total);
  return {
    shop: t.agent,
    ticketId: t.id,
    date: printDate(businessDay(confirming ? deps.clock.now() : new Date(t.confirmed_at ?? t.created_at))),
    customer: { name: t.customer.full_name, mobile: t.customer.mobile || undefined, address: address?.line },
    items: items.map((i) => ({
      name: i.sub_category?.name ?? i.description,
      pieces: i.pieces ? i.pieces.split(",").join(", ") : undefined,
      quantity: i.sub_category?.allow_quantity ? i.quantity : undefined,
      total: euro(i.total_override ?? i.total),
      express: i.has_express,
    })),
    showPrices: state?.prices_on_receipt ?? false,
    totals: { subtotal: euro(split.subtotal), vat: euro(split.vat), total: euro(split.total), paid: euro(t.total_paid), due: euro(t.balance) },
    pickup: t.pickup_date ? printDate(t.pickup_date) : undefined,
    delivery: t.delivery_date ? printDate(t.delivery_date) : undefined,
    stamp: { agent: caller.agent.name, employee: caller.employee.full_name, employeeId: caller.employee.id },
    payments: receiptPayments(await deps.payments(caller, t.id)),
  };
}

/**
 * A ticket's payment rows as the receipt lists them: a payment of the whole ticket is one row
 * per item, written at one instant by one tender, and prints as one line with its total (and,
 * for cash, what was handed over and the change, which its first row carries). Refunds print
 * one by one with their reason.
 */
export function receiptPayments(rows: readonly Payment[]): ReceiptPayment[] {
  const out: (ReceiptPayment & { key: string; cents: number })[] = [];
  for (const r of rows) {
    const refund = r.amount < 0;
    const key = refund ? `refund ${r.id}` : `${r.taken_at} ${r.tender} ${r.employee_id} ${r.stop ?? ""}`;
    const cents = Math.round(r.amount * 100);
    let p = out.find((x) => x.key === key);
    if (!p)
      out.push((p = { key, cents: 0, tender: r.tender, amount: "", when: displayDateTime(r.taken_at), refund, ...(refund ? { reason: r.reason ?? "" } : {}) }));
    p.cents += cents;
    if (r.tendered !== null) Object.assign(p, { tendered: euroFromEuros(r.tendered), change: euroFromEuros(r.change ?? 0) });
  }
  return out.map(({ key, cents, ...p }) => ({ ...p, amount: euro(cents) }));
}

/** The ticket as an A4 PDF: the same content as the receipt, with the ticket's QR code. */
export async function ticketPdf(d: ReceiptData, clock: Clock): Promise<{ pdf: Buffer; filename: string }> {
  const qr = await QRCode.toBuffer(ticketCode(d.ticketId), { errorCorrectionLevel: "M", margin: 1, scale: 4 });
  const pdf = await renderPdf(
    (doc) => {
      const left = doc.page.margins.left;
      const right = doc.page.width - doc.page.margins.right;
      doc.image(qr, right - 90, doc.y, { width: 90 });
      doc
        .font("bold")
        .fontSize(20)
        .text(d.shop, left, doc.y, { width: right - left - 100 });
      doc.font("bold").fontSize(14).text(`Ticket #${d.ticketId}`);
      doc.font("regular").fontSize(10).fillColor("#555").text(d.date).fillColor("#000").moveDown(1.2);
      doc.font("bold").fontSize(12).text(d.customer.name);
      doc.font("regular").fontSize(10);
      if (d.customer.mobile) doc.text(d.customer.mobile);
      if (d.customer.address) doc.text(d.customer.address);
      doc.moveDown(0.8);
      const row = (l: string, r: string, bold = false) => {
        const y = doc.y;
        doc.font(bold ? "bold" : "regular").text(l, left, y, { width: right - left - 110 });
        const after = doc.y;
        if (r) doc.text(r, right - 100, y, { width: 100, align: "right" });
        doc.y = Math.max(after, doc.y);
        doc.x = left;
      };
      for (const it of d.items) {
        row(
          `${it.express ? "EXPRESS  " : ""}${it.quantity && it.quantity > 1 ? `${it.quantity} × ` : ""}${it.name}${it.pieces ? ` (${it.pieces})` : ""}`,
          d.showPrices ? it.total : "",
        );
      }
      doc.moveDown(0.5).moveTo(left, doc.y).lineTo(right, doc.y).strokeColor("#bbb").stroke().moveDown(0.5);
      if (d.showPrices) {
        row("Subtotal", d.totals.subtotal);
        row("VAT 18%", d.totals.vat);
        row("Total", d.totals.total, true);
        row("Paid", d.totals.paid);
        row("Due", d.totals.due, true);
        doc.moveDown(0.5);
      }
      // What was paid prints in every state, as on the receipt.
      if (d.payments?.length) {
        doc.font("bold").text("Payments", left, doc.y).font("regular");
        for (const p of d.payments) {
          const { label, details } = paymentLines(p);
          row(`${label} ${p.when}${details.length ? ` · ${details.join(" · ")}` : ""}`, p.amount);
        }
        doc.moveDown(0.5);
      }
      if (d.pickup) row(`Pickup ${d.pickup}`, "");
      if (d.delivery) row(`Delivery ${d.delivery}`, "");
      doc.moveDown(1).fontSize(9).fillColor("#444");
      for (const c of RECEIPT_CONDITIONS) doc.text(c);
      doc.moveDown(0.8).text(`${d.stamp.agent} / ${d.stamp.employee} · Employee ID ${d.stamp.employeeId}`);
    },
    { title: `Ticket ${d.ticketId}`, author: `${d.stamp.agent} / ${d.stamp.employee}` },
  );
  return { pdf, filename: `ticket${d.ticketId} ${printDate(businessDay(clock.now()))}.pdf` };
}
