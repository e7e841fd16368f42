import { expect, test } from "bun:test";
import { LABEL_WIDTH_DOTS } from "./label";
import { modelFor, PRINTER_MODELS, PrinterModel } from "./models";

test("every model is valid, ids are unique, and label printers fit the 550-dot label", () => {
  expect(new Set(PRINTER_MODELS.map((m) => m.id)).size).toBe(PRINTER_MODELS.length);
  for (const m of PRINTER_MODELS) expect(PrinterModel.safeParse(m).success).toBe(true);
  for (const m of PRINTER_MODELS.filter((x) => x.class === "label")) expect(m.widthDots).toBeGreaterThanOrEqual(LABEL_WIDTH_DOTS);
  expect(PrinterModel.safeParse({ ...PRINTER_MODELS[0], usb: [{ vendorId: "16640", productId: "0d10" }] }).success).toBe(false);
});

test("a model is found by USB ids, then by its name", () => {
  expect(modelFor("04B8", "0E15")?.id).toBe("epson-tm-t20");
  expect(modelFor("ffff", "ffff", "Argox OS-2140 PPLA")?.id).toBe("argox-os-2140");
  expect(modelFor("ffff", "ffff", "USB Serial")).toBeUndefined();
});
