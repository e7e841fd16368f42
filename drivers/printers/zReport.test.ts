import { expect, test } from "bun:test";
import { escPosText } from "./escpos";
import { SAMPLE_Z } from "./fixtures";
import { twoColumns } from "./receipt";
import { encodeEscPosZReport } from "./zReport";

test("the Z report in ESC/POS, parsed back: the day, expected, counted and variance per tender, counts, cash by employee, the close", () => {
  const r = escPosText(encodeEscPosZReport(SAMPLE_Z, "80mm"));
  expect(r.lines.every((l) => [...l].length <= 33)).toBe(true);
  expect(r.lines.slice(0, 3)).toEqual(["Z REPORT", "Ironbox Birkirkara", "Day 22/11/2026"]);
  const block = (tender: string) => r.lines.slice(r.lines.indexOf(tender), r.lines.indexOf(tender) + 4);
  expect(block("Cash")).toEqual(["Cash", twoColumns("Expected", "€46.20", 33), twoColumns("Counted", "€47.20", 33), twoColumns("Variance", "€1.00", 33)]);
  expect(block("Card")).toEqual(["Card", twoColumns("Expected", "€30.60", 33), twoColumns("Counted", "€30.60", 33), twoColumns("Variance", "€0.00", 33)]);
  expect(block("Other")[1]).toBe(twoColumns("Expected", "€0.00", 33));
  expect(r.lines).toContain(twoColumns("Payments", "7", 33));
  expect(r.lines).toContain(twoColumns("Refunds", "1", 33));
  expect(r.lines).toContain(twoColumns("Anna Vella (employee)", "€40.20", 33));
  expect(r.lines).toContain(twoColumns("Daniel Micallef (driver)", "€6.00", 33));
  expect(r.lines).toContain("Closed 22/11/2026 19:02");
  expect(r.lines).toContain("One euro over");
  expect(r.lines).toContain("Employee ID 2");
  expect(r.qr).toBeNull();
  expect(r.cut).toBe(true);
});

test("an open day prints no counted or variance and says NOT CLOSED; 58 mm stays within 19 characters; names cannot inject commands", () => {
  const open = {
    ...SAMPLE_Z,
    tenders: SAMPLE_Z.tenders.map(({ label, expected }) => ({ label, expected })),
    closed: undefined,
    movedToNextDay: 2,
    byEmployee: [{ name: "Eve\x1b@\x1dV\x00", role: "", cash: "€1.00" }],
  };
  const bytes = encodeEscPosZReport(open, "58mm");
  const r = escPosText(bytes);
  expect(r.lines.every((l) => [...l].length <= 19)).toBe(true);
  expect(r.lines.join("\n")).not.toContain("Counted");
  expect(r.lines.join("\n")).not.toContain("Variance");
  expect(r.lines).toContain("NOT CLOSED");
  expect(r.lines.join(" ")).toContain("2 payment(s) after the close count in the next open day.");
  expect(r.lines).toContain(twoColumns("Eve @ V", "€1.00", 19));
  // One cut, the only GS commands the encoder's own.
  expect(bytes.filter((b) => b === 0x1d).length).toBe(1);
});

test("on 58 mm paper long names and the close's time wrap rather than lose their figures", () => {
  const r = escPosText(encodeEscPosZReport(SAMPLE_Z, "58mm"));
  const at = r.lines.indexOf("Daniel Micallef (dr");
  expect(r.lines[at + 1]).toBe(twoColumns("", "€6.00", 19));
  expect(r.lines.slice(r.lines.indexOf("Closed"), r.lines.indexOf("Closed") + 2)).toEqual(["Closed", "22/11/2026 19:02"]);
  expect(r.lines).toContain("22/11/2026 19:03");
});
