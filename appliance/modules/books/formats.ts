/**
 * The journal's files (issue 34, docs/decisions/journal-formats.md): Xero's manual journal
 * import, QuickBooks Online's journal entry import, and a plain CSV. One journal per day and
 * shop; its debits equal its credits or no file is made. Text cells are made safe for a
 * spreadsheet (formula neutralising) and quoted by RFC 4180; amounts are the box's own numbers.
 */
import { csvField, money, neutralise } from "../reports/cells";
import type { Chart } from "./accounts";
import type { JournalFormat } from "./model";
import type { JournalLine } from "./sources";

export interface Journal {
  day: string;
  agent: number;
  shop: string;
  /** At HQ, the site copy it was read from (its ids are that site's own): in the shop's name and the journal's number. */
  site?: string;
  lines: JournalLine[];
}

/** Lines grouped per day and shop (in day, then shop order), same account and description added up, netted to one side. */
export function journals(lines: readonly JournalLine[], shops: ReadonlyMap<number, string>, site?: string): Journal[] {
  const byDay = new Map<string, Map<string, JournalLine>>();
  for (const l of lines) {
    const k = `${l.day}|${String(l.agent).padStart(12, "0")}`;
    let day = byDay.get(k);
    if (!day) byDay.set(k, (day = new Map()));
    const key = `${l.account}|${l.description}`;
    const had = day.get(key);
    if (had) (had.debit += l.debit), (had.credit += l.credit);
    else day.set(key, { ...l });
  }
  return [...byDay.keys()].sort().map((k) => {
    const [day, agent] = [k.split("|")[0]!, Number(k.split("|")[1])];
    const merged = [...byDay.get(k)!.values()]
      .map((l) => (l.debit >= l.credit ? { ...l, debit: l.debit - l.credit, credit: 0 } : { ...l, debit: 0, credit: l.credit - l.debit }))
      .filter((l) => l.debit || l.credit);
    const shop = shops.get(agent) ?? `Shop ${agent}`;
    return site === undefined ? { day, agent, shop, lines: merged } : { day, agent, shop: `${shop} (${site})`, site, lines: merged };
  });
}

/** The days whose debits differ from their credits (none, or the file is not made). */
export function unbalanced(js: readonly Journal[]): string[] {
  return js
    .filter((j) => j.lines.reduce((s, l) => s + l.debit - l.credit, 0) !== 0)
    .map((j) => `${j.day} ${j.shop}: debits ${money(j.lines.reduce((s, l) => s + l.debit, 0))}, credits ${money(j.lines.reduce((s, l) => s + l.credit, 0))}`);
}

const dmy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
const txt = (s: string) => csvField(neutralise(s));
const row = (cells: string[]) => `${cells.join(",")}\r\n`;
const amount = (cents: number) => (cents ? money(cents) : "");

export const HEADERS: Record<JournalFormat, string[]> = {
  // Xero, Manual Journals > Import (template columns): a positive Amount is a debit, a negative one a credit.
  xero: ["Narration", "Date", "Description", "AccountCode", "TaxRate", "Amount", "TrackingName1", "TrackingOption1"],
  // QuickBooks Online, Import data > Journal entries: lines of one entry share the Journal No.
  quickbooks: ["JournalNo", "JournalDate", "AccountName", "Debits", "Credits", "Description", "Name"],
  csv: ["Date", "Shop", "Journal", "AccountCode", "AccountName", "Description", "Debit", "Credit"],
};

/** The file's text. Xero and QuickBooks take no byte-order mark in their templates; the plain CSV has one, for spreadsheets. */
export function journalFile(format: JournalFormat, js: readonly Journal[], chart: Chart): string {
  let out = format === "csv" ? "\uFEFF" : "";
  out += row(HEADERS[format]);
  for (const j of js) {
    const narration = `Ironbox ${j.shop} ${dmy(j.day)}`;
    // Two sites' boxes number their shops alike: the site keeps their journals apart.
    const number = `${j.day.replaceAll("-", "")}${j.site === undefined ? "" : `-${j.site}`}-${j.agent}`;
    for (const l of j.lines) {
      const acc = chart[l.account];
      if (format === "xero")
        out += row([
          txt(narration),
          dmy(j.day),
          txt(l.description),
          txt(acc.code),
          txt(chart.xero_tax_rate.name),
          money(l.debit - l.credit),
          "Shop",
          txt(j.shop),
        ]);
      else if (format === "quickbooks") out += row([number, dmy(j.day), txt(acc.name), amount(l.debit), amount(l.credit), txt(l.description), ""]);
      else out += row([dmy(j.day), txt(j.shop), number, txt(acc.code), txt(acc.name), txt(l.description), amount(l.debit), amount(l.credit)]);
    }
  }
  return out;
}
