import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseScan } from "../../appliance/domain/scancodes";
import type { LabelData, LabelVariant } from "./label";
import { SAMPLE_LABEL } from "./fixtures";
import { encodePplz, zplEscape } from "./pplz";

const label: LabelData = { ...SAMPLE_LABEL, customer: "Joseph Camilleri" };

test("field data escapes ^ and ~ so they cannot start commands", () => {
  expect(zplEscape("a^b~c_d")).toBe("a_5Eb_7Ec_5Fd");
  const zpl = new TextDecoder().decode(encodePplz(label));
  expect(zpl.startsWith("^XA\n^CI28\n^PW550")).toBe(true);
  expect(zpl.trim().endsWith("^XZ")).toBe(true);
  // Every ^FD … ^FS field is closed and holds no raw caret or tilde.
  for (const m of zpl.matchAll(/\^FD(.*?)\^FS/g)) expect(m[1]).not.toMatch(/[\^~]/);
  expect(zpl).toContain("T#1042  I#88123");
  expect(zpl).toContain("L 0/3  D 1/2");
  expect(zpl).not.toContain("C 0/0");
});

const variants: [string, LabelData, LabelVariant][] = [
  ["normal", label, "normal"],
  ["smaller", label, "smaller"],
  ["no-logo", label, "nologo"],
  ["mini", { ...label, mini: true, action: "Dry Cleaning" }, "normal"],
];

for (const [name, d, variant] of variants) {
  test(`${name} label: rendered by an independent renderer, its QR scans back to ticket, item, description and piece`, async () => {
    const { ready } = await import("zpl-renderer-js");
    const { api } = await ready;
    const zpl = new TextDecoder().decode(encodePplz(d, variant));
    for (const m of zpl.matchAll(/\^FD(?!MA,)(.*?)\^FS/g)) expect([...m[1]!.replace(/_[0-9A-F]{2}/g, "x")].length).toBeLessThanOrEqual(37);
    expect(zpl.includes("IRONBOX")).toBe(name === "normal");
    const png = Buffer.from(await api.zplToBase64Async(zpl, 69, 50, 8), "base64");
    const file = join(mkdtempSync(join(tmpdir(), "label-")), "label.png");
    await Bun.write(file, png);
    const text = Bun.spawnSync(["zbarimg", "--raw", "-q", file]).stdout.toString().trim();
    expect(parseScan(text)).toMatchObject({ type: "item", TicketID: 1042, ItemID: 88123, Desc: "Suit 2pc nav", Piece: "Jacket" });
  }, 30_000);
}

test("a mini label names its action and is short; the QR sits beside its three lines", () => {
  const zpl = new TextDecoder().decode(encodePplz({ ...label, mini: true, action: "Dry Cleaning" }));
  expect(zpl).toContain("^FDDry Cleaning^FS");
  expect(zpl).toContain("^LL160");
  expect(zpl).not.toContain("Joseph Camilleri");
});
