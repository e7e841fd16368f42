import { asc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { actionGarmentSubCategories, actions, garmentCategories, garmentSubCategories } from "../../../db/schema";
import { renderPdf } from "../../../drivers/pdf/document";
import { businessDay } from "../../domain/dates";
import { euro, printDate } from "../../domain/format";
import { effectivePrice, type PriceRecord } from "../../domain/pricing";
import type { Clock } from "../../platform/clock";

/**
 * The printable price list: every visible garment of every visible category, in the
 * catalogue's order, with its visible actions' prices; stamped with the agent and employee.
 */
export async function priceListPdf(db: Db, clock: Clock, stamp: { agent: string; employee: string }): Promise<{ pdf: Buffer; filename: string }> {
  const cats = await db
    .select()
    .from(garmentCategories)
    .where(eq(garmentCategories.visible, true))
    .orderBy(asc(garmentCategories.order), asc(garmentCategories.id));
  const subs = await db
    .select()
    .from(garmentSubCategories)
    .where(eq(garmentSubCategories.visible, true))
    .orderBy(asc(garmentSubCategories.order), asc(garmentSubCategories.id));
  const records = await db
    .select({ r: actionGarmentSubCategories, action: actions.name, visible: actions.visible })
    .from(actionGarmentSubCategories)
    .innerJoin(actions, eq(actions.id, actionGarmentSubCategories.action_id));
  const all = new Map<number, PriceRecord>(records.map((x) => [x.r.id, x.r]));
  const day = businessDay(clock.now());

  const pdf = await renderPdf(
    (doc) => {
      doc.font("bold").fontSize(20).text("Price list", { continued: false });
      doc
        .font("regular")
        .fontSize(9)
        .fillColor("#555")
        .text(`${stamp.agent} · ${stamp.employee} · ${printDate(day)} · prices include VAT at 18 %`);
      doc.moveDown(0.8).fillColor("#000");
      const left = doc.page.margins.left;
      const right = doc.page.width - doc.page.margins.right;
      for (const cat of cats) {
        const garments = subs.filter((s) => s.garment_category_id === cat.id);
        if (!garments.length) continue;
        if (doc.y > doc.page.height - 120) doc.addPage();
        doc.font("bold").fontSize(13).text(`${cat.name}`, left, doc.y, { continued: true }).font("regular").fontSize(9).fillColor("#777").text(`  ${cat.type}`);
        doc
          .fillColor("#000")
          .moveTo(left, doc.y + 2)
          .lineTo(right, doc.y + 2)
          .strokeColor("#bbb")
          .stroke()
          .moveDown(0.4);
        for (const g of garments) {
          const prices = records
            .filter((x) => x.visible && x.r.garment_sub_category_id === g.id)
            .map((x) => ({ action: x.action, cents: effectivePrice(x.r.id, all) }))
            .sort((a, b) => a.action.localeCompare(b.action));
          if (doc.y > doc.page.height - 60) doc.addPage();
          const y = doc.y;
          doc
            .font("bold")
            .fontSize(10)
            .text(g.name + (g.pieces ? ` (${g.pieces.split(",").join(", ")})` : ""), left, y, { width: 220 });
          const afterName = doc.y;
          doc.font("regular").fontSize(10);
          const line = prices.length ? prices.map((p) => `${p.action} ${euro(p.cents)}`).join("   ·   ") : "price on request";
          doc.text(line, left + 230, y, { width: right - left - 230 });
          doc.y = Math.max(afterName, doc.y) + 4;
          doc.x = left;
        }
        doc.moveDown(0.6);
      }
    },
    { title: "Price list", author: `${stamp.agent} / ${stamp.employee}` },
  );
  return { pdf, filename: `pricelist ${printDate(day)}.pdf` };
}
