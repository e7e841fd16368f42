import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { DeviceRoots } from "../devices";

/**
 * Issue 22: is this input device a barcode gun? A keyboard-wedge gun and a keyboard look the
 * same to the kernel (both are keyboards), so a gun saved on /dev/input/event0 or a
 * keyboard's *-event-kbd would stream whatever is typed on the box's keyboard to the tablets.
 * A device counts as a scanner when it says so: its USB vendor is a barcode-scanner maker, or
 * its name (udev's by-id name, or the kernel's input device name) says scanner or barcode or
 * names such a maker. HID POS scanners (usage page 0x8C) also count.
 */

/** USB vendor ids of barcode-scanner makers (usb.ids). */
export const SCANNER_VENDORS: ReadonlyMap<number, string> = new Map([
  [0x0c2e, "Honeywell (Metrologic)"],
  [0x0536, "Hand Held Products (Honeywell)"],
  [0x05e0, "Symbol Technologies (Zebra)"],
  [0x0a5f, "Zebra"],
  [0x05f9, "Datalogic (PSC)"],
  [0x080c, "Datalogic"],
  [0x1eab, "Newland"],
  [0x065a, "Opticon"],
]);
/** The HID usage page of a "Bar Code Scanner" (HID POS usage tables). */
export const HID_USAGE_PAGE_BARCODE = 0x8c;

const NAME =
  /bar[\s_-]?code|scanner|honeywell|metrologic|hand[\s_-]?held[\s_-]?products|symbol[\s_]technologies|zebra|datalogic|newland|opticon|zebex|netum|inateck|eyoyo/i;

/** Whether a device name (udev by-id, kernel input name, USB product/manufacturer) says scanner. */
export const nameSaysScanner = (name: string | undefined): boolean => !!name && NAME.test(name);

export interface HidInfo {
  vendorId: number;
  productId: number;
  product?: string;
  manufacturer?: string;
  usagePage?: number;
}
/** A HID device that identifies as a scanner: its maker, its usage page, or its own product name. */
export const hidIsScanner = (d: HidInfo): boolean =>
  SCANNER_VENDORS.has(d.vendorId) || d.usagePage === HID_USAGE_PAGE_BARCODE || nameSaysScanner(d.product) || nameSaysScanner(d.manufacturer);

const read = (path: string) => {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return undefined;
  }
};

/**
 * Why an input device path (input/eventN or input/by-id/…) is a scanner, or null when it does
 * not identify as one. Looks at the by-id names that lead to the node, and at sysfs
 * (class/input/eventN/device: its name and USB vendor id).
 */
export function evdevScannerReason(path: string, roots: DeviceRoots): string | null {
  const byIdDir = join(roots.devRoot, "input/by-id");
  let node = path;
  try {
    node = realpathSync(path);
  } catch {
    // Unplugged: only the name it was given can speak for it.
  }
  const names = [basename(path)];
  if (existsSync(byIdDir))
    for (const f of readdirSync(byIdDir)) {
      try {
        if (realpathSync(join(byIdDir, f)) === node) names.push(f);
      } catch {}
    }
  const said = names.find(nameSaysScanner);
  if (said) return `named ${said}`;
  const event = basename(node);
  if (/^event\d+$/.test(event)) {
    const dev = join(roots.sysRoot, "class/input", event, "device");
    const vendor = Number.parseInt(read(join(dev, "id/vendor")) ?? "", 16);
    if (SCANNER_VENDORS.has(vendor)) return `made by ${SCANNER_VENDORS.get(vendor)}`;
    const kernelName = read(join(dev, "name"));
    if (nameSaysScanner(kernelName)) return `named ${kernelName}`;
  }
  return null;
}

/**
 * The folders from a sysfs class entry's `device` link up to its USB device (the one with
 * idVendor), nearest first; empty when it leads to no USB device (rfcomm, a built-in port).
 * ttyACM: device is the USB interface; ttyUSB: the usb-serial port under the interface.
 */
function usbChain(classEntry: string): string[] {
  let dir: string;
  try {
    dir = realpathSync(join(classEntry, "device"));
  } catch {
    return [];
  }
  const chain: string[] = [];
  for (let i = 0; i < 4 && dir.length > 1; i++, dir = dirname(dir)) {
    chain.push(dir);
    if (existsSync(join(dir, "idVendor"))) return chain;
  }
  return [];
}

/**
 * Why a serial path (ttyACM*, ttyUSB*, rfcomm*, serial/by-id/…) is a scanner, or null when it
 * does not identify as one. Serial guns (CDC ACM, or a gun's own USB-serial chip) say so by
 * udev's by-id name (usb-<maker>_<product>_…) or by their USB device in sysfs
 * (class/tty/ttyACM0/device: the vendor id, the maker's and product's names, the interface's
 * name). A bare USB-serial cable (FTDI, CH340, PL2303) or a Bluetooth rfcomm port says nothing:
 * whatever it is wired to, only head office staff may add it.
 */
export function serialScannerReason(path: string, roots: DeviceRoots): string | null {
  let node = path;
  try {
    node = realpathSync(path);
  } catch {
    // Unplugged: only the name it was given can speak for it.
  }
  const names = [basename(path)];
  const byIdDir = join(roots.devRoot, "serial/by-id");
  if (existsSync(byIdDir))
    for (const f of readdirSync(byIdDir)) {
      try {
        if (realpathSync(join(byIdDir, f)) === node) names.push(f);
      } catch {}
    }
  const said = names.find(nameSaysScanner);
  if (said) return `named ${said}`;
  const tty = basename(node);
  if (!/^tty(ACM|USB)\d+$/.test(tty)) return null;
  const chain = usbChain(join(roots.sysRoot, "class/tty", tty));
  const usb = chain.at(-1);
  if (!usb) return null;
  const vendor = Number.parseInt(read(join(usb, "idVendor")) ?? "", 16);
  if (SCANNER_VENDORS.has(vendor)) return `made by ${SCANNER_VENDORS.get(vendor)}`;
  const named = [read(join(usb, "product")), read(join(usb, "manufacturer")), ...chain.map((d) => read(join(d, "interface")))].find(nameSaysScanner);
  return named ? `named ${named}` : null;
}
