import { expect, test } from "bun:test";
import { parseScan } from "../../appliance/domain/scancodes";
import { LABEL_WIDTH_DOTS, type LabelData, type LabelVariant } from "./label";
import { SAMPLE_LABEL } from "./fixtures";
import { encodePpla, pplaText } from "./ppla";

const label: LabelData = { ...SAMPLE_LABEL, description: "Suit 2pc navy\rE\r\x02L", express: false };

/** Reads a PPLA job back: its text records and QR payload, checking every record against the DPL grammar. */
function parse(bytes: Uint8Array) {
  const job = new TextDecoder().decode(bytes);
  expect(job.startsWith("\x02L\rD11\r")).toBe(true);
  expect(job.endsWith("E\r")).toBe(true);
  const body = job.slice("\x02L\rD11\r".length, -"E\r".length);
  const qr = /1W1d([1-9])([1-9])000(\d{4})(\d{4})([^\r]*)\r\r$/.exec(body);
  expect(qr).not.toBeNull();
  expect(qr![1]).toBe(qr![2]); // QR cells are square
  const texts = body.slice(0, qr!.index).split("\r").filter(Boolean);
  const maxCol = Math.round((LABEL_WIDTH_DOTS / 203) * 100);
  const records = texts.map((r) => {
    const m = /^([1-4])([0-9])([1-9])([1-9])(\d{3})(\d{4})(\d{4})([\x20-\x7e]*)$/.exec(r);
    if (!m) throw new Error(`not a PPLA text record: ${JSON.stringify(r)}`);
    expect(Number(m[7])).toBeLessThan(maxCol);
    return { row: Number(m[6]), data: m[8]! };
  });
  expect(Number(qr![4])).toBeLessThan(maxCol);
  return { records, rows: records.map((r) => r.row), lines: records.map((r) => r.data), qr: qr![5]! };
}

for (const [name, d, variant] of [
  ["normal", label, "normal"],
  ["smaller", label, "smaller"],
  ["no-logo", label, "nologo"],
  ["mini", { ...label, mini: true, action: "Pressing" }, "normal"],
] as [string, LabelData, LabelVariant][]) {
  test(`${name} PPLA label: valid records top to bottom, lines within 37 characters, QR with ticket, item, description and piece`, () => {
    const p = parse(encodePpla(d, variant));
    expect(p.lines.every((l) => l.length <= 37)).toBe(true);
    expect([...p.rows].sort((a, b) => b - a)).toEqual(p.rows); // rows count from the bottom: top line first
    expect(p.lines.includes("IRONBOX")).toBe(name === "normal");
    expect(p.lines).toContain("T#1042  I#88123");
    if (name === "mini") expect(p.lines).toContain("Pressing");
    else expect(p.lines).toContain("Guzeppi Zammit");
    expect(parseScan(p.qr)).toMatchObject({ type: "item", TicketID: 1042, ItemID: 88123, Piece: "Jacket" });
  });
}

test("control characters in data cannot end a record or start a new label", () => {
  const job = new TextDecoder().decode(encodePpla(label));
  expect(job.match(/\x02/g)).toHaveLength(1);
  expect(job.match(/\rE\r/g)).toHaveLength(1);
  expect(pplaText("a\rb\nc\x02d")).toBe("a b c d");
  expect(pplaText("Ħamrun €5")).toBe("Hamrun ?5");
});
