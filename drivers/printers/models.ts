import { z } from "zod";

/** Printer models as data (STYLE.md 4): validated when the module loads, so a bad entry fails at start, not at the counter. */
const usbId = z.string().regex(/^[0-9a-f]{4}$/);
export const PrinterModel = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  name: z.string().min(1),
  class: z.enum(["label", "receipt"]),
  /** The languages it speaks, the usual one first. */
  languages: z.array(z.enum(["PPLZ", "PPLA", "ESCPOS"])).min(1),
  dpi: z.number().int().positive(),
  /** Printable width in dots (labels: the 550-dot layout must fit). */
  widthDots: z.number().int().positive(),
  paper: z.enum(["80mm", "58mm"]).optional(),
  /** ESC/POS code page number for text (858: Western European with €). */
  codePage: z.number().int().min(0).max(255),
  cutter: z.boolean(),
  usb: z.array(z.object({ vendorId: usbId, productId: usbId })),
  /** Words of the USB product name that identify the model, lower case. */
  nameMatch: z.array(z.string().min(2)),
});
export type PrinterModel = z.infer<typeof PrinterModel>;

/*
 * USB ids: Argox's vendor id 1664 and Epson's 04b8 are registered; the product ids below are
 * the ones those printers report in their manuals and udev listings. Xprinter-class printers
 * ship under several chip vendors (0483 STMicro, 0416 Winbond, 1fc9 NXP): those entries are
 * typical, not certain, so the name words back them up.
 */
export const PRINTER_MODELS: PrinterModel[] = z.array(PrinterModel).parse([
  {
    id: "argox-os-214plus",
    name: "Argox OS-214plus",
    class: "label",
    languages: ["PPLZ", "PPLA"],
    dpi: 203,
    widthDots: 832,
    codePage: 0,
    cutter: false,
    usb: [{ vendorId: "1664", productId: "0d10" }],
    nameMatch: ["os-214plus", "os-214 plus", "os214plus"],
  },
  {
    id: "argox-os-2140",
    name: "Argox OS-2140",
    class: "label",
    languages: ["PPLA", "PPLZ"],
    dpi: 203,
    widthDots: 832,
    codePage: 0,
    cutter: false,
    usb: [{ vendorId: "1664", productId: "0d11" }],
    nameMatch: ["os-2140", "os2140"],
  },
  {
    id: "argox-cp-2140",
    name: "Argox CP-2140",
    class: "label",
    languages: ["PPLA", "PPLZ"],
    dpi: 203,
    widthDots: 832,
    codePage: 0,
    cutter: false,
    usb: [{ vendorId: "1664", productId: "0d12" }],
    nameMatch: ["cp-2140", "cp2140"],
  },
  {
    id: "generic-zpl",
    name: "ZPL label printer",
    class: "label",
    languages: ["PPLZ"],
    dpi: 203,
    widthDots: 832,
    codePage: 0,
    cutter: false,
    usb: [],
    nameMatch: ["zpl", "zebra"],
  },
  {
    id: "epson-tm-t20",
    name: "Epson TM-T20",
    class: "receipt",
    languages: ["ESCPOS"],
    dpi: 203,
    widthDots: 576,
    paper: "80mm",
    codePage: 19,
    cutter: true,
    usb: [
      { vendorId: "04b8", productId: "0e15" },
      { vendorId: "04b8", productId: "0e03" },
    ],
    nameMatch: ["tm-t20"],
  },
  {
    id: "epson-tm-t88",
    name: "Epson TM-T88",
    class: "receipt",
    languages: ["ESCPOS"],
    dpi: 180,
    widthDots: 512,
    paper: "80mm",
    codePage: 19,
    cutter: true,
    usb: [
      { vendorId: "04b8", productId: "0202" },
      { vendorId: "04b8", productId: "0e27" },
    ],
    nameMatch: ["tm-t88"],
  },
  {
    id: "xprinter-xp-80",
    name: "Xprinter XP-80",
    class: "receipt",
    languages: ["ESCPOS"],
    dpi: 203,
    widthDots: 576,
    paper: "80mm",
    codePage: 19,
    cutter: true,
    usb: [
      { vendorId: "0483", productId: "5743" },
      { vendorId: "1fc9", productId: "2016" },
    ],
    nameMatch: ["xp-80", "xp80"],
  },
  {
    id: "xprinter-xp-58",
    name: "Xprinter XP-58",
    class: "receipt",
    languages: ["ESCPOS"],
    dpi: 203,
    widthDots: 384,
    paper: "58mm",
    codePage: 19,
    cutter: false,
    usb: [{ vendorId: "0416", productId: "5011" }],
    nameMatch: ["xp-58", "xp58"],
  },
  {
    id: "generic-escpos",
    name: "ESC/POS receipt printer",
    class: "receipt",
    languages: ["ESCPOS"],
    dpi: 203,
    widthDots: 576,
    paper: "80mm",
    codePage: 19,
    cutter: true,
    usb: [],
    nameMatch: ["pos-80", "pos80", "receipt printer", "thermal receipt"],
  },
]);

/** The model a device is, by USB ids first, then by words of its product name. */
export function modelFor(vendorId: string | undefined, productId: string | undefined, productName = ""): PrinterModel | undefined {
  const v = vendorId?.toLowerCase();
  const p = productId?.toLowerCase();
  const byId = PRINTER_MODELS.find((m) => m.usb.some((u) => u.vendorId === v && u.productId === p));
  if (byId) return byId;
  const name = productName.toLowerCase();
  return name ? PRINTER_MODELS.find((m) => m.nameMatch.some((w) => name.includes(w))) : undefined;
}
