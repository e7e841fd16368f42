import { expect, test } from "bun:test";
import QRCode from "qrcode";
import { parseScan } from "../../appliance/domain/scancodes";
import { labelKinds, QR_PIECES, SAMPLE_LABEL } from "./fixtures";
import type { LabelData, LabelVariant } from "./label";
import { encodePpla, pplaText } from "./ppla";
import { encodePplz } from "./pplz";

/*
 * A reader for PPLA jobs written from the DPL manual, not from the encoder: it checks every
 * record against the grammar, places every field on a 550 × height-dot label at 203 dpi
 * (rows and columns in hundredths of an inch from the bottom left) and reads the text and
 * the QR payload back.
 */

/** DPL internal fonts at 203 dpi (DPL manual Table C-2, dots) and whether they have lower case (Table C-1). */
const FONTS: Record<string, { h: number; w: number; s: number; lower: boolean }> = {
  "0": { h: 7, w: 5, s: 1, lower: true },
  "1": { h: 13, w: 7, s: 2, lower: true },
  "2": { h: 18, w: 10, s: 2, lower: true },
  "3": { h: 27, w: 14, s: 2, lower: false },
  "4": { h: 36, w: 18, s: 3, lower: false },
  "5": { h: 52, w: 18, s: 3, lower: false },
  "6": { h: 64, w: 32, s: 4, lower: false },
  "7": { h: 32, w: 15, s: 5, lower: true },
};
const DOTS = 2.03; // dots in a hundredth of an inch at 203 dpi
const WIDTH = 550;
const mult = (c: string) => Number.parseInt(c, 25); // 1-9, A-O

type Box = { what: string; x0: number; y0: number; x1: number; y1: number };

function parse(bytes: Uint8Array) {
  const job = new TextDecoder().decode(bytes);
  if (!job.startsWith("\x02L\r")) throw new Error("a job starts with <STX>L<CR>");
  let rest = job.slice(3);
  const commands: string[] = [];
  const texts: (Box & { font: string; data: string })[] = [];
  const qrs: (Box & { data: string })[] = [];
  while (rest.length) {
    // QR, automatic formatting: rotation W1d cell cell 000 row col data <CR><CR>
    const qr = /^1W1d([1-9A-O])([1-9A-O])000(\d{4})(\d{4})([^\r]*)\r\r/.exec(rest);
    if (qr) {
      const [, c, d, row, col, data] = qr as unknown as string[];
      expect(c).toBe(d!); // QR cells are square
      const modules = QRCode.create([{ data: Buffer.from(data!), mode: "byte" }], { errorCorrectionLevel: "M" }).modules.size;
      const side = modules * mult(c!) * DOTS;
      const [x0, y0] = [Number(col) * DOTS, Number(row) * DOTS];
      qrs.push({ what: "QR", x0, y0, x1: x0 + side, y1: y0 + side, data: data! });
      rest = rest.slice(qr[0].length);
      continue;
    }
    const end = rest.indexOf("\r");
    if (end < 0) throw new Error(`unterminated: ${JSON.stringify(rest)}`);
    const rec = rest.slice(0, end);
    rest = rest.slice(end + 1);
    // Text in an internal font: rotation font hmul vmul 000 row col data <CR>
    const t = /^1([0-8])([1-9A-O])([1-9A-O])000(\d{4})(\d{4})([\x20-\x7e]{0,255})$/.exec(rec);
    if (t) {
      const [, font, hm, vm, row, col, data] = t as unknown as string[];
      const f = FONTS[font!];
      if (!f) throw new Error(`font ${font} is not a text font`);
      if (/[a-z]/.test(data!)) expect(f.lower).toBe(true);
      const [x0, y0] = [Number(col) * DOTS, Number(row) * DOTS];
      const n = data!.length;
      texts.push({ what: data!, font: font!, data: data!, x0, y0, x1: x0 + (n * (f.w + f.s) - f.s) * mult(hm!), y1: y0 + f.h * mult(vm!) });
      continue;
    }
    if (!/^(D11|n|E)$/.test(rec)) throw new Error(`not a PPLA record: ${JSON.stringify(rec)}`);
    commands.push(rec);
    if (rec === "E") break;
  }
  expect(rest).toBe(""); // nothing after E
  expect(commands).toEqual(["D11", "n", "E"]); // dot size 1 × 1, inch mode, print
  expect(qrs).toHaveLength(1);
  return { texts, qr: qrs[0]!, lines: texts.map((t) => t.data) };
}

/** Every field inside the label and none touching another (2 dots apart at least). */
function expectLaidOut(boxes: Box[], height: number) {
  for (const b of boxes) {
    expect([b.what, b.x0 >= 0 && b.y0 >= 0 && b.x1 <= WIDTH - 2 && b.y1 <= height - 2]).toEqual([b.what, true]);
  }
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1)) {
      const apart = a.x1 + 2 <= b.x0 || b.x1 + 2 <= a.x0 || a.y1 + 2 <= b.y0 || b.y1 + 2 <= a.y0;
      expect([a.what, b.what, apart]).toEqual([a.what, b.what, true]);
    }
}

// '^' and '~' inside the 12 characters that reach the label and the QR; Maltese letters.
const label: LabelData = { ...SAMPLE_LABEL, description: "Suit^2pc~navy wool" };
const PIECES = QR_PIECES;
const KINDS = labelKinds(label);

for (const [kind, base, variant] of KINDS)
  for (const [version, piece] of Object.entries(PIECES)) {
    const d = { ...base, piece };
    test(`${kind} PPLA label (${version} QR): valid records, all on the label and apart, text read back, QR with ticket, item, description and piece`, () => {
      const p = parse(encodePpla(d, variant));
      // The same label stock as the PPLZ job for this label.
      const height = Number(/\^LL(\d+)/.exec(new TextDecoder().decode(encodePplz(d, variant)))![1]);
      expectLaidOut([...p.texts, p.qr], height);
      expect(p.lines.every((l) => l.length <= 37)).toBe(true);
      const rows = p.texts.map((t) => t.y0);
      expect([...rows].sort((a, b) => b - a)).toEqual(rows); // top line first
      expect(p.lines.includes("IRONBOX")).toBe(kind === "normal");
      if (kind === "mini") {
        expect(p.lines).toEqual(["T#1042  I#88123", "Suit^2pc~nav", "Dry Cleaning"]);
        expect(p.qr.x0).toBeGreaterThan(Math.max(...p.texts.map((t) => t.x1)));
      } else {
        expect(p.lines.filter((l) => l !== "IRONBOX")).toEqual([
          "T#1042  I#88123  EXPRESS",
          `Suit^2pc~nav - ${piece}`.slice(0, 37),
          "Ironbox Birkirkara",
          "In 22/11/2026  Out 29/11/2026",
          "L 0/3  D 1/2",
          "Guzeppi Zammit",
        ]);
        expect(p.qr.y1).toBeLessThan(Math.min(...p.texts.map((t) => t.y0))); // under the text
      }
      expect(parseScan(p.qr.data)).toMatchObject({ type: "item", TicketID: 1042, ItemID: 88123, Desc: "Suit^2pc~nav", Piece: piece });
    });
  }

test("the layout check can fail: text in the all-caps font 3 or running off the label is caught", () => {
  const job = new TextDecoder().decode(encodePpla(label));
  expect(() => parse(new TextEncoder().encode(job.replaceAll("1211000", "1311000")))).toThrow();
  const wide = parse(new TextEncoder().encode(job.replace(/1211000(\d{4})0008/, "1211000$10200")));
  expect(() => expectLaidOut([...wide.texts, wide.qr], 400)).toThrow();
});

test("control characters in data cannot end a record or start a command", () => {
  const evil: LabelData = { ...label, description: "Suit\r1W1d\rE\r", piece: "Jack\x02L\r\net\x01#", customer: "Joe\x7f\x1b\rE" };
  for (const [d, v] of [
    [evil, "normal"],
    [{ ...evil, mini: true, action: "Dry\rE\r" }, "normal"],
  ] as [LabelData, LabelVariant][]) {
    const bytes = encodePpla(d, v);
    const job = new TextDecoder().decode(bytes);
    expect(job.match(/\x02/g)).toHaveLength(1);
    expect(job).not.toMatch(/[\x00\x01\x03-\x0c\x0e-\x1f\x7f]/);
    const p = parse(bytes); // one job, every record valid, one E at the end
    expect(parseScan(p.qr.data)).toMatchObject({ type: "item", TicketID: 1042, ItemID: 88123, Desc: "Suit 1W1d E", Piece: "Jack L  et #" });
    if (d.mini) expect(p.lines).toContain("Dry E ");
    else expect(p.lines).toContain("Joe   E");
  }
  expect(pplaText("a\rb\nc\x02d\x01e")).toBe("a b c d e");
});

test("record text is ASCII, one character for one: accents dropped, anything else a single '?'", () => {
  expect(pplaText("Ġużeppi Żammit")).toBe("Guzeppi Zammit");
  expect(pplaText("Ħamrun €5 ☕ 😀")).toBe("Hamrun ?5 ? ?");
  const long = `${"😀".repeat(20)}${"é".repeat(17)}`;
  expect(pplaText(long)).toHaveLength([...long].length);
});
