import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { modelFor } from "./models";

/** Spec §3 "Printer device" (id, name, serialNumber, productName, manufacturerName), plus where and what it is. */
export interface PrinterDevice {
  id: string;
  name: string;
  serialNumber: string;
  productName: string;
  manufacturerName: string;
  /** Spec §9 port codes: u (USB), b (Bluetooth). */
  port: "u" | "b";
  kind: "usblp" | "serial" | "rfcomm";
  path: string;
  vendorId?: string;
  productId?: string;
  class: "label" | "receipt" | "unknown";
  encoding?: "PPLZ" | "PPLA" | "ESCPOS";
}

const read = (file: string) => {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
};
const list = (dir: string) => {
  try {
    return readdirSync(dir).sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  } catch {
    return [];
  }
};

/** Walks up from a class entry's device link to the USB device (the directory holding idVendor). */
function usbDevice(classEntry: string): string | null {
  let dir: string;
  try {
    dir = realpathSync(join(classEntry, "device"));
  } catch {
    return null;
  }
  for (let i = 0; i < 4 && dir.length > 1; i++, dir = dirname(dir)) if (existsSync(join(dir, "idVendor"))) return dir;
  return null;
}

/**
 * What kind of printer a device is, "where the device says so": the IEEE-1284 id's command
 * set first (ZPL, DPL/PPLA, ESC/POS), then a known model's USB ids or name, then words in the
 * product name. Unknown when nothing says.
 */
export function classify(ieee1284: string, vendorId: string, productId: string, productName: string): Pick<PrinterDevice, "class" | "encoding"> {
  const cmd = /(?:^|;)\s*(?:CMD|COMMAND SET):([^;]*)/i.exec(ieee1284)?.[1]?.toUpperCase() ?? "";
  if (/ZPL|PPLZ/.test(cmd)) return { class: "label", encoding: "PPLZ" };
  if (/PPLA|DPL|EPL/.test(cmd)) return { class: "label", encoding: "PPLA" };
  if (/ESC\/?POS/.test(cmd)) return { class: "receipt", encoding: "ESCPOS" };
  const model = modelFor(vendorId, productId, productName);
  if (model) return { class: model.class, encoding: model.languages[0] };
  if (/label|argox|zebra|godex|tsc/i.test(productName)) return { class: "label", encoding: "PPLZ" };
  if (/receipt|pos|thermal|tm-|xp-/i.test(productName)) return { class: "receipt", encoding: "ESCPOS" };
  return { class: "unknown" };
}

function usbPrinter(sysEntry: string, node: string, kind: "usblp" | "serial", ieee1284: string): PrinterDevice | null {
  const usb = usbDevice(sysEntry);
  if (!usb || !existsSync(node)) return null;
  const vendorId = read(join(usb, "idVendor")).toLowerCase();
  const productId = read(join(usb, "idProduct")).toLowerCase();
  if (!/^[0-9a-f]{4}$/.test(vendorId) || !/^[0-9a-f]{4}$/.test(productId)) return null;
  const manufacturerName = read(join(usb, "manufacturer"));
  const productName = read(join(usb, "product"));
  const serialNumber = read(join(usb, "serial"));
  return {
    id: `usb-${vendorId}-${productId}${serialNumber ? `-${serialNumber.toLowerCase().replace(/[^a-z0-9]+/g, "")}` : ""}`.slice(0, 40),
    name: productName || `USB printer ${vendorId}:${productId}`,
    serialNumber,
    productName,
    manufacturerName,
    port: "u",
    kind,
    path: node,
    vendorId,
    productId,
    ...classify(ieee1284, vendorId, productId, productName),
  };
}

/**
 * The printers attached to the box now: USB printer-class devices (usblp), USB-serial ttys,
 * and Bluetooth printers bound to RFCOMM. Reads sysfs and /dev only; never throws (a device
 * half gone while we look is skipped).
 */
export function discoverPrinters({ sysRoot = "/sys", devRoot = "/dev" }: { sysRoot?: string; devRoot?: string } = {}): PrinterDevice[] {
  const out: PrinterDevice[] = [];
  for (const lp of list(join(sysRoot, "class/usbmisc")).filter((n) => /^lp\d+$/.test(n))) {
    const entry = join(sysRoot, "class/usbmisc", lp);
    const d = usbPrinter(entry, join(devRoot, "usb", lp), "usblp", read(join(entry, "device/ieee1284_id")));
    if (d) out.push(d);
  }
  for (const tty of list(join(sysRoot, "class/tty")).filter((n) => /^tty(USB|ACM)\d+$/.test(n))) {
    // Barcode guns are USB-serial too: an unclassified tty is listed as unknown, never guessed.
    const d = usbPrinter(join(sysRoot, "class/tty", tty), join(devRoot, tty), "serial", "");
    if (d) out.push(d);
  }
  for (const rf of list(devRoot).filter((n) => /^rfcomm\d+$/.test(n))) {
    out.push({
      id: rf,
      name: `Bluetooth printer (${rf})`,
      serialNumber: "",
      productName: "",
      manufacturerName: "",
      port: "b",
      kind: "rfcomm",
      path: join(devRoot, rf),
      class: "unknown",
    });
  }
  // Two printers of the same model without serial numbers: keep their ids apart.
  const seen = new Map<string, number>();
  for (const d of out) {
    const n = (seen.get(d.id) ?? 0) + 1;
    seen.set(d.id, n);
    if (n > 1) d.id = `${d.id.slice(0, 36)}-${n}`;
  }
  return out;
}
