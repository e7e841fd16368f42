import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import { parseRackCode } from "../../appliance/domain/racks";
import { parseScan } from "../../appliance/domain/scancodes";
import { labelKinds, QR_PIECES, SAMPLE_LABEL } from "./fixtures";
import QRCode from "qrcode";
import { type LabelData, type LabelVariant, labelQr, qrModules } from "./label";
import { encodePplz, zplEscape } from "./pplz";

// '^' and '~' inside the 12 characters that reach the label and the QR.
const label: LabelData = { ...SAMPLE_LABEL, description: "Suit^2pc~navy wool", customer: "Joseph Camilleri" };
const zplOf = (d: LabelData, v: LabelVariant = "normal") => new TextDecoder().decode(encodePplz(d, v));

test("field data escapes ^ and ~ so they cannot start commands", () => {
  expect(zplEscape("a^b~c_d")).toBe("a_5Eb_7Ec_5Fd");
  const zpl = zplOf(label);
  expect(zpl.startsWith("^XA\n^CI28\n^PW550")).toBe(true);
  expect(zpl.trim().endsWith("^XZ")).toBe(true);
  // Every ^FD … ^FS field is closed and holds no raw caret or tilde.
  const fields = [...zpl.matchAll(/\^FD(.*?)\^FS/g)].map((m) => m[1]!);
  for (const f of fields) expect(f).not.toMatch(/[\^~]/);
  expect(fields).toContain("Suit_5E2pc_7Enav - Jacket");
  expect(fields).toContain("MA,!I!I:88123,Suit_5E2pc_7Enav,T:1042,P:Jacket");
  expect(zpl).toContain("T#1042  I#88123");
  expect(zpl).toContain("L 0/3  D 1/2");
  expect(zpl).not.toContain("C 0/0");
});

const PIECES = QR_PIECES;
const KINDS = labelKinds(label);
const variants = KINDS.flatMap(([kind, d, v]) =>
  Object.entries(PIECES).map(([version, piece]) => [`${kind} (${version} QR)`, { ...d, piece }, v] as [string, LabelData, LabelVariant]),
);

test("qrModules agrees with an independent QR encoder, byte mode at ECC M", () => {
  for (const [version, piece] of Object.entries(PIECES)) {
    const payload = labelQr({ ...label, piece });
    const ref = QRCode.create([{ data: Buffer.from(payload), mode: "byte" }], { errorCorrectionLevel: "M" });
    expect(`v${ref.version}`).toBe(version);
    expect(qrModules(payload)).toBe(ref.modules.size);
  }
  expect(qrModules("x".repeat(200))).toBe(QRCode.create([{ data: Buffer.from("x".repeat(200)), mode: "byte" }], { errorCorrectionLevel: "M" }).modules.size);
});

test("a version-4 QR keeps its full size on every variant, even under six lines of text", () => {
  for (const [kind, d, v] of KINDS) {
    const zpl = zplOf({ ...d, piece: PIECES.v4 }, v);
    expect([kind, /\^BQN,2,(\d)/.exec(zpl)![1]]).toEqual([kind, v === "smaller" ? "2" : "4"]);
  }
  // A longer payload halves the modules where the full size would run off the label.
  expect(zplOf({ ...label, piece: PIECES.v5 })).toContain("^BQN,2,2");
});

const size = (zpl: string) => ({ w: Number(/\^PW(\d+)/.exec(zpl)![1]), h: Number(/\^LL(\d+)/.exec(zpl)![1]) });

/**
 * Renders ZPL to PNG at 8 dots/mm; by default at the label's own size (^PW × ^LL), so whatever
 * falls off the label is cut off as on paper. `below` adds canvas under the label (a wider
 * canvas would not help: the renderer centres a ^PW-wide label in it).
 */
async function renderPng(zpl: string, below = 0): Promise<Buffer> {
  const { ready } = await import("zpl-renderer-js");
  const { api } = await ready;
  const { w, h } = size(zpl);
  return Buffer.from(await api.zplToBase64Async(zpl, w / 8, (h + below) / 8, 8), "base64");
}
async function render(zpl: string): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), "label-")), "label.png");
  await Bun.write(file, await renderPng(zpl));
  return file;
}
const scan = (file: string) => Bun.spawnSync(["zbarimg", "--raw", "-q", file]).stdout.toString().trim();

/** The dark pixels of an 8-bit greyscale PNG (what zpl-renderer-js writes). */
function ink(png: Buffer): { w: number; h: number; dark: (x: number, y: number) => boolean } {
  let p = 8;
  const idat: Buffer[] = [];
  let w = 0;
  let h = 0;
  while (p < png.length) {
    const len = png.readUInt32BE(p);
    const type = png.toString("latin1", p + 4, p + 8);
    const body = png.subarray(p + 8, p + 8 + len);
    if (type === "IHDR") {
      [w, h] = [body.readUInt32BE(0), body.readUInt32BE(4)];
      if (body[8] !== 8 || body[9] !== 0 || body[12] !== 0) throw new Error("expected 8-bit greyscale, not interlaced");
    }
    if (type === "IDAT") idat.push(body);
    p += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const px = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (w + 1)]!;
    for (let x = 0; x < w; x++) {
      const r = raw[y * (w + 1) + 1 + x]!;
      const a = x ? px[y * w + x - 1]! : 0;
      const b = y ? px[(y - 1) * w + x]! : 0;
      const c = x && y ? px[(y - 1) * w + x - 1]! : 0;
      const pa = Math.abs(b - c),
        pb = Math.abs(a - c),
        pc = Math.abs(a + b - 2 * c);
      const pred = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][f]!;
      px[y * w + x] = (r + pred) & 0xff;
    }
  }
  return { w, h, dark: (x, y) => px[y * w + x]! < 128 };
}
function box(img: ReturnType<typeof ink>) {
  const b = { x0: Infinity, y0: Infinity, x1: -1, y1: -1 };
  for (let y = 0; y < img.h; y++)
    for (let x = 0; x < img.w; x++)
      if (img.dark(x, y)) Object.assign(b, { x0: Math.min(b.x0, x), y0: Math.min(b.y0, y), x1: Math.max(b.x1, x), y1: Math.max(b.y1, y) });
  return b;
}
const QR_FIELD = /\^FO\d+,\d+\^BQ[^\n]*\n/;

for (const [name, d, variant] of variants) {
  test(`${name} label: rendered at its own size by an independent renderer, its QR scans back to ticket, item, description and piece`, async () => {
    const zpl = zplOf(d, variant);
    const texts = [...zpl.matchAll(/\^FD(?!MA,)(.*?)\^FS/g)].map((m) => m[1]!.replace(/_[0-9A-F]{2}/g, "x"));
    expect(texts.length).toBeGreaterThanOrEqual(3);
    for (const t of texts) expect([...t].length).toBeLessThanOrEqual(37);
    expect(zpl.includes("IRONBOX")).toBe(variant === "normal" && !d.mini);
    const text = scan(await render(zpl));
    expect(parseScan(text)).toMatchObject({ type: "item", TicketID: 1042, ItemID: 88123, Desc: "Suit^2pc~nav", Piece: d.piece });
  }, 30_000);
}

for (const [name, d, variant] of variants) {
  test(`${name} label: everything lies on the label and the QR stays clear of the text`, async () => {
    const zpl = zplOf(d, variant);
    const { w, h } = size(zpl);
    // Rendered with canvas to spare below, so anything past the bottom edge would show; ink in
    // the last columns would be something cut off at the right edge.
    const all = box(ink(await renderPng(zpl, 64)));
    expect(all.x1).toBeLessThan(w - 2);
    expect(all.y1).toBeLessThan(h - 2);
    const qr = box(ink(await renderPng(zpl.replace(/\^FO\d+,\d+\^A0[^\n]*\n/g, ""), 64)));
    expect(qr.x1 - qr.x0).toBeGreaterThan(50);
    const text = ink(await renderPng(zpl.replace(QR_FIELD, ""), 64));
    for (let y = qr.y0 - 3; y <= qr.y1 + 3; y++)
      for (let x = qr.x0 - 3; x <= qr.x1 + 3; x++) if (text.dark(x, y)) throw new Error(`text ink at ${x},${y} touches the QR (${JSON.stringify(qr)})`);
  }, 30_000);
}

test("a rack label (issue 25) shows its name and its QR scans back as that rack, never as a ticket or an item", async () => {
  const zpl = zplOf({ ...SAMPLE_LABEL, rack: "Rack A3, top" }, "normal");
  expect(zpl).toContain("^FDRACK Rack A3, top^FS");
  const text = scan(await render(zpl));
  expect(parseRackCode(text)).toBe("Rack A3, top");
  expect(() => parseScan(text)).toThrow();
}, 30_000);

test("the check above can fail: a QR placed past the bottom of the label does not scan", async () => {
  const zpl = zplOf(label, "smaller").replace(/\^FO(\d+),(\d+)\^BQ/, (_, x) => `^FO${x},200^BQ`);
  expect(scan(await render(zpl))).toBe("");
}, 30_000);

test("a mini label names its action and is short; the QR sits beside its three lines", () => {
  const zpl = zplOf({ ...label, mini: true, action: "Dry Cleaning" });
  expect(zpl).toContain("^FDDry Cleaning^FS");
  expect(zpl).toContain("^FDSuit_5E2pc_7Enav^FS");
  expect(zpl).toContain("^LL160");
  expect(zpl).not.toContain("Joseph Camilleri");
  expect(zpl).not.toContain("L 0/3");
  const [, x, y] = /\^FO(\d+),(\d+)\^BQ/.exec(zpl)!;
  expect(Number(y)).toBe(12);
  expect(Number(x)).toBeGreaterThan(300);
});

test("control characters in data cannot split a field or start a command: every line is one of the encoder's own", () => {
  const evil: LabelData = {
    ...label,
    description: "Suit\n^XZ^XA^FO0,0^FDpwn^FS\r\n~JR",
    piece: "Jack\r\nE\r\net\x1b@",
    customer: "Joe\x00\x7f\x85\n^XZ",
    agent: "Shop\n^XA",
  };
  for (const [d, v] of [
    [evil, "normal"],
    [{ ...evil, mini: true, action: "Dry\r\n^XZ" }, "normal"],
  ] as [LabelData, LabelVariant][]) {
    const zpl = zplOf(d, v);
    const lines = zpl.trimEnd().split("\n");
    expect(lines[0]).toBe("^XA");
    expect(lines.at(-1)).toBe("^XZ");
    for (const l of lines.slice(1, -1))
      expect(l).toMatch(/^\^(CI28|PW\d+|LL\d+|LH0,0|FO\d+,\d+\^(A0N,\d+,\d+|BQN,2,\d)\^FH\^FD[^^~\r\n\x00-\x1f\x7f-\x9f]*\^FS)$/);
    expect(zpl).not.toMatch(/[\r\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    const qr = /\^FDMA,(.*)\^FS/.exec(zpl)![1]!.replace(/_([0-9A-F]{2})/g, (_, h) => String.fromCharCode(Number.parseInt(h, 16)));
    expect(parseScan(qr)).toMatchObject({ type: "item", TicketID: 1042, ItemID: 88123, Desc: "Suit ^XZ^XA^", Piece: "Jack  E  et @" });
  }
});
