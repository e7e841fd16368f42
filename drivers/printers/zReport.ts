import { encodeEscPosLines } from "./escpos";
import { cutLine, type Paper, RECEIPT_WIDTH, twoColumns, wrap } from "./receipt";
import { printable } from "./text";

/**
 * What a Z report (the day's drawer, issue 24) shows on the receipt printer, independent of
 * the printer language. Money and dates already formatted; the same figures as GET /till/{date}.
 */
export interface ZReportData {
  shop: string;
  /** The drawer's day, DD/MM/YYYY. */
  day: string;
  tenders: { label: string; expected: string; counted?: string; variance?: string }[];
  payments: number;
  refunds: number;
  /** Payments of this day taken after its close, counted in the next open day. */
  movedToNextDay: number;
  byEmployee: { name: string; role: string; cash: string }[];
  /** DD/MM/YYYY HH:mm and the note; absent while the day is open. */
  closed?: { at: string; note: string };
  printedAt: string;
  stamp: { agent: string; employee: string; employeeId: number };
}

type Line = { text: string; bold?: boolean; center?: boolean };

/** The Z report as lines of at most `width` characters, none holding a control character. */
export function zReportLines(d: ZReportData, width: number): Line[] {
  const L: Line[] = [];
  const rule = "-".repeat(width);
  const two = (l: string, r: string, bold = false) => L.push({ text: twoColumns(l, r, width), bold });
  // A name and amount that do not fit on one line (58 mm paper): the name, then the amount right-aligned.
  const named = (l: string, r: string) =>
    [...l].length + 1 + [...r].length <= width ? two(l, r) : L.push({ text: cutLine(l, width) }, { text: twoColumns("", r, width) });
  const dated = (what: string, at: string, bold = false) =>
    [...what].length + 1 + [...at].length <= width
      ? L.push({ text: `${what} ${at}`, bold })
      : L.push({ text: cutLine(what, width), bold }, { text: cutLine(at, width), bold });
  L.push({ text: cutLine("Z REPORT", width), bold: true, center: true });
  L.push({ text: cutLine(d.shop, width), bold: true, center: true });
  L.push({ text: cutLine(`Day ${d.day}`, width), center: true });
  L.push({ text: rule });
  for (const t of d.tenders) {
    L.push({ text: cutLine(t.label, width), bold: true });
    two("Expected", t.expected);
    if (t.counted !== undefined) two("Counted", t.counted);
    if (t.variance !== undefined) two("Variance", t.variance, true);
  }
  L.push({ text: rule });
  two("Payments", String(d.payments));
  two("Refunds", String(d.refunds));
  if (d.movedToNextDay > 0) {
    for (const l of wrap(`${d.movedToNextDay} payment(s) after the close count in the next open day.`, width)) L.push({ text: l });
  }
  L.push({ text: rule });
  L.push({ text: cutLine("Cash by employee", width), bold: true });
  for (const e of d.byEmployee) named(e.role ? `${e.name} (${e.role})` : e.name, e.cash);
  if (!d.byEmployee.length) L.push({ text: cutLine("No cash taken", width) });
  L.push({ text: rule });
  if (d.closed) {
    dated("Closed", d.closed.at, true);
    for (const l of wrap(d.closed.note, width)) L.push({ text: l });
  } else L.push({ text: cutLine("NOT CLOSED", width), bold: true });
  L.push({ text: rule });
  dated("Printed", d.printedAt);
  L.push({ text: cutLine(`${d.stamp.agent} / ${d.stamp.employee}`, width) });
  L.push({ text: cutLine(`Employee ID ${d.stamp.employeeId}`, width) });
  return L.map((l) => ({ ...l, text: printable(l.text) }));
}

/** The Z report as ESC/POS bytes (80 or 58 mm), no QR, fed and cut. Pure: bytes out, no I/O. */
export function encodeEscPosZReport(d: ZReportData, paper: Paper = "80mm"): Uint8Array {
  return encodeEscPosLines(zReportLines(d, RECEIPT_WIDTH[paper]), paper);
}
