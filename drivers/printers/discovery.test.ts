import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { classify, discoverPrinters } from "./discovery";

/** A stand-in sysfs laid out as the kernel does: class entries link into devices/, ids sit on the USB device. */
function fakeTree() {
  const root = mkdtempSync(join(tmpdir(), "sysfs-"));
  const sys = join(root, "sys");
  const dev = join(root, "dev");
  mkdirSync(join(dev, "usb"), { recursive: true });
  const usbDevice = (bus: string, ids: Record<string, string>) => {
    const d = join(sys, "devices/pci0000:00/0000:00:14.0/usb1", bus);
    mkdirSync(join(d, `${bus}:1.0`), { recursive: true });
    for (const [f, v] of Object.entries(ids)) writeFileSync(join(d, f), `${v}\n`);
    return d;
  };
  const classEntry = (cls: string, name: string, usb: string, bus: string) => {
    mkdirSync(join(usb, `${bus}:1.0`, cls, name), { recursive: true });
    symlinkSync(`../../../${bus}:1.0`, join(usb, `${bus}:1.0`, cls, name, "device"));
    mkdirSync(join(sys, "class", cls), { recursive: true });
    symlinkSync(join(usb, `${bus}:1.0`, cls, name), join(sys, "class", cls, name));
  };
  // A label printer on usblp whose IEEE-1284 id says ZPL.
  const argox = usbDevice("1-1", { idVendor: "1664", idProduct: "0d10", manufacturer: "Argox", product: "OS-214plus series PPLZ", serial: "AX-123" });
  writeFileSync(join(argox, "1-1:1.0/ieee1284_id"), "MFG:Argox;CMD:ZPL,EPL;MDL:OS-214plus;CLS:PRINTER;\n");
  classEntry("usbmisc", "lp0", argox, "1-1");
  writeFileSync(join(dev, "usb/lp0"), "");
  // A CH340 USB-serial receipt printer, known by its product name.
  const pos = usbDevice("1-2", { idVendor: "1a86", idProduct: "7523", product: "POS-80 receipt printer" });
  classEntry("tty", "ttyUSB0", pos, "1-2");
  writeFileSync(join(dev, "ttyUSB0"), "");
  // A gun on ttyACM0 that says nothing about printing: listed as unknown, never guessed.
  const gun = usbDevice("1-3", { idVendor: "0c2e", idProduct: "0b61", product: "Barcode Scanner" });
  classEntry("tty", "ttyACM0", gun, "1-3");
  writeFileSync(join(dev, "ttyACM0"), "");
  // Half unplugged: the class entry is there, the device directory is gone.
  mkdirSync(join(sys, "class/usbmisc"), { recursive: true });
  symlinkSync(join(sys, "devices/gone"), join(sys, "class/usbmisc/lp1"));
  writeFileSync(join(dev, "rfcomm0"), "");
  return { sys, dev };
}

test("discovery lists usblp, USB-serial and RFCOMM printers with spec §3's fields and classifies them", () => {
  const { sys, dev } = fakeTree();
  const found = discoverPrinters({ sysRoot: sys, devRoot: dev });
  expect(found.map((d) => [d.id, d.kind, d.port, d.class, d.encoding ?? null])).toEqual([
    ["usb-1664-0d10-ax123", "usblp", "u", "label", "PPLZ"],
    ["usb-0c2e-0b61", "serial", "u", "unknown", null],
    ["usb-1a86-7523", "serial", "u", "receipt", "ESCPOS"],
    ["rfcomm0", "rfcomm", "b", "unknown", null],
  ]);
  expect(found[0]).toMatchObject({
    name: "OS-214plus series PPLZ",
    serialNumber: "AX-123",
    productName: "OS-214plus series PPLZ",
    manufacturerName: "Argox",
    path: join(dev, "usb/lp0"),
    vendorId: "1664",
    productId: "0d10",
  });
});

test("classification: the device's own command set first, then a known model, then its name", () => {
  expect(classify("MFG:X;CMD:ESC/POS;", "ffff", "ffff", "")).toEqual({ class: "receipt", encoding: "ESCPOS" });
  expect(classify("MFG:Argox;COMMAND SET:PPLA;", "ffff", "ffff", "")).toEqual({ class: "label", encoding: "PPLA" });
  expect(classify("", "04b8", "0e15", "")).toEqual({ class: "receipt", encoding: "ESCPOS" });
  expect(classify("", "ffff", "ffff", "Thermal Label Printer")).toEqual({ class: "label", encoding: "PPLZ" });
  expect(classify("", "ffff", "ffff", "USB Serial")).toEqual({ class: "unknown" });
});

test("this machine's real /sys and /dev never make discovery throw", () => {
  expect(Array.isArray(discoverPrinters())).toBe(true);
  expect(discoverPrinters({ sysRoot: "/nonexistent", devRoot: "/nonexistent" })).toEqual([]);
});
