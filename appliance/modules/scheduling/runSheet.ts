import { renderPdf } from "../../../drivers/pdf/document";
import { euro, printDate } from "../../domain/format";
import type { SchedulingService } from "./service";

type Run = Awaited<ReturnType<SchedulingService["run"]>>;

/** A driver's run as an A4 sheet: one block per stop, in the run's order, with a box to tick. */
export async function runSheetPdf(run: Run): Promise<{ pdf: Buffer; filename: string }> {
  const pdf = await renderPdf(
    (doc) => {
      const left = doc.page.margins.left;
      const width = doc.page.width - left - doc.page.margins.right;
      doc
        .font("bold")
        .fontSize(18)
        .text(`Run ${printDate(run.date)}`);
      doc
        .font("regular")
        .fontSize(11)
        .text(`${run.driver.full_name} · ${run.stops.length} stop${run.stops.length === 1 ? "" : "s"}`)
        .moveDown(0.8);
      if (!run.stops.length) doc.text("No pickups or deliveries in this driver's localities.");
      run.stops.forEach((s, i) => {
        if (doc.y > doc.page.height - 160) doc.addPage();
        const top = doc.y;
        doc
          .rect(left, top + 2, 10, 10)
          .strokeColor("#000")
          .stroke();
        doc
          .font("bold")
          .fontSize(12)
          .text(`${i + 1}. ${s.kind === "pickup" ? "PICK UP" : "DELIVER"} · Ticket #${s.ticket_id} · ${s.customer_full_name}`, left + 18, top, {
            width: width - 18,
          });
        doc.font("regular").fontSize(10);
        doc.text(s.address, { width: width - 18 });
        const phones = [s.mobile, s.landline].filter(Boolean).join(" / ");
        if (phones) doc.text(`Tel ${phones}`);
        if (s.comments) doc.text(`Note: ${s.comments}`);
        if (s.items.length)
          doc.text(s.items.map((it) => `${it.quantity > 1 ? `${it.quantity} × ` : ""}${it.description}${it.pieces ? ` (${it.pieces})` : ""}`).join("; "), {
            width: width - 18,
          });
        if (s.amount_due > 0)
          doc
            .font("bold")
            .text(`Due ${euro(s.amount_due)}`)
            .font("regular");
        doc
          .moveDown(0.4)
          .moveTo(left, doc.y)
          .lineTo(left + width, doc.y)
          .strokeColor("#bbb")
          .stroke()
          .moveDown(0.6);
        doc.x = left;
      });
    },
    { title: `Run ${run.date} ${run.driver.full_name}` },
  );
  return { pdf, filename: `run ${run.driver.full_name} ${printDate(run.date)}.pdf` };
}
