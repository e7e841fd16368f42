// The Z report (issue 24): a day's drawer as an A4 PDF, from the same figures as GET /till/{date}.
import { renderPdf } from "../../../drivers/pdf/document";
import type { ZReportData } from "../../../drivers/printers/zReport";
import { displayDate, displayDateTime, euroFromEuros } from "../../domain/format";
import { DRAWER_TENDERS, type TillDay } from "./model";

const LABEL = { cash: "Cash", card: "Card", other: "Other" } as const;

export async function zReportPdf(day: TillDay, shop: string): Promise<{ pdf: Buffer; filename: string }> {
  const pdf = await renderPdf(
    (doc) => {
      const left = doc.page.margins.left;
      const right = doc.page.width - doc.page.margins.right;
      const row = (cells: string[], bold = false) => {
        const y = doc.y;
        const w = (right - left) / cells.length;
        doc.font(bold ? "bold" : "regular").fontSize(10);
        cells.forEach((c, i) => doc.text(c, left + i * w, y, { width: w - 4, align: i === 0 ? "left" : "right" }));
        doc.x = left;
        doc.moveDown(0.3);
      };
      doc.font("bold").fontSize(18).text(`Z report · ${shop}`);
      doc
        .font("regular")
        .fontSize(12)
        .text(`Day ${displayDate(day.day)}`)
        .moveDown(0.8);
      row(["Tender", "Expected", "Counted", "Variance"], true);
      for (const t of DRAWER_TENDERS) {
        row([
          LABEL[t],
          euroFromEuros(day.expected[t]),
          day.closed ? euroFromEuros(day.closed.counted[t]) : "-",
          day.closed ? euroFromEuros(day.closed.variance[t]) : "-",
        ]);
      }
      doc.moveDown(0.5);
      row([`Payments ${day.payments}`, `Refunds ${day.refunds}`]);
      if (day.moved_to_next_day > 0) doc.text(`${day.moved_to_next_day} payment(s) after the close count in the next open day.`);
      doc.moveDown(0.5).font("bold").text("Cash by employee");
      for (const e of day.by_employee) row([e.employee ?? "-", e.role ?? "", euroFromEuros(e.cash)]);
      doc.moveDown(0.5).font("regular");
      doc.text(day.closed ? `Closed ${displayDateTime(day.closed.closed_at)}${day.closed.note ? ` · ${day.closed.note}` : ""}` : "Not closed");
    },
    { title: `Z report ${day.day}` },
  );
  return { pdf, filename: `Z ${shop} ${day.day}.pdf` };
}

/** The Z report's content for the receipt printer (drivers/printers/zReport.ts): the same figures as the PDF, formatted. */
export function zReportData(day: TillDay, shop: string, stamp: ZReportData["stamp"], now: Date): ZReportData {
  return {
    shop,
    day: displayDate(day.day),
    tenders: DRAWER_TENDERS.map((t) => ({
      label: LABEL[t],
      expected: euroFromEuros(day.expected[t]),
      ...(day.closed ? { counted: euroFromEuros(day.closed.counted[t]), variance: euroFromEuros(day.closed.variance[t]) } : {}),
    })),
    payments: day.payments,
    refunds: day.refunds,
    movedToNextDay: day.moved_to_next_day,
    byEmployee: day.by_employee.map((e) => ({ name: e.employee ?? "-", role: e.role ?? "", cash: euroFromEuros(e.cash) })),
    ...(day.closed ? { closed: { at: displayDateTime(day.closed.closed_at), note: day.closed.note } } : {}),
    printedAt: displayDateTime(now),
    stamp,
  };
}

/** HQ may ask for another shop's day: it is named by id rather than by HQ's own name. */
export const zShopName = (day: TillDay, caller: { agent: { id: number; name: string } }) =>
  day.agent_id === caller.agent.id ? caller.agent.name : `shop ${day.agent_id}`;
