import { closeSync, constants, existsSync, fstatSync, openSync, realpathSync } from "node:fs";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isAbsolute, posix, relative } from "node:path";

/**
 * Which files the box may open as hardware. A printer or gun path is a device node under the
 * device root (IRONBOX_DEV_ROOT, /dev) whose name fits its kind, and, after realpath, still is
 * one; when opened, it must be a character device (checked with fstat on the open file). An
 * admin can therefore never point a printer or a gun at a file the box reads or runs.
 *
 * Tests point the device root elsewhere (a temp folder): with such an explicit test root,
 * stand-ins are accepted where real hardware would be (a FIFO or a plain file for a device, a
 * pty from socat for a USB-serial device, a loopback socket for a network printer). With the
 * real /dev none of that is: there is no "any file" mode.
 */
export type DeviceKind = "usblp" | "serial" | "rfcomm" | "evdev";

/** The device nodes each kind may end at (relative to the device root). */
const NODES: Record<DeviceKind, RegExp[]> = {
  usblp: [/^usb\/lp\d+$/],
  // A serial printer or gun: USB-serial (CH340, PL2303, CDC ACM) or Bluetooth serial.
  serial: [/^ttyUSB\d+$/, /^ttyACM\d+$/, /^rfcomm\d+$/],
  rfcomm: [/^rfcomm\d+$/],
  // Never for printers: writing to an input device would type into the box's console.
  evdev: [/^input\/event\d+$/],
};
/** Stable names udev makes, which are links to one of the nodes above. */
const LINKS: Partial<Record<DeviceKind, RegExp[]>> = {
  serial: [/^serial\/by-id\/[\w.:+-]+$/],
  evdev: [/^input\/by-id\/[\w.:+-]+$/],
};
const ALLOWED_TEXT: Record<DeviceKind, string> = {
  usblp: "usb/lp*",
  serial: "ttyUSB*, ttyACM*, rfcomm* or serial/by-id/*",
  rfcomm: "rfcomm*",
  evdev: "input/event* or input/by-id/*",
};

export class DevicePathError extends Error {}

const under = (root: string, path: string) => {
  const rel = relative(root, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : null;
};

/** Ports of network printers: raw (JetDirect 9100–9102), LPD (515) and IPP (631). */
export const PRINTER_PORTS = [9100, 9101, 9102, 515, 631];

function v4Private(ip: string): boolean {
  const [a, b] = ip.split(".").map(Number) as [number, number];
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}
const v4Loopback = (ip: string) => ip.startsWith("127.");

/** Where device nodes are (IRONBOX_DEV_ROOT) and where discovery reads sysfs (IRONBOX_SYSFS_ROOT). */
export interface DeviceRoots {
  sysRoot: string;
  devRoot: string;
}

/**
 * The hardware the box may use under these roots. The composition root makes one from the
 * configuration and hands it to whatever opens devices (printer transports, gun readers,
 * the services that check saved paths); a test makes its own for its stand-in tree.
 */
export function deviceAccess(roots: DeviceRoots) {
  const realRoot = () => {
    try {
      return realpathSync(roots.devRoot);
    } catch {
      return roots.devRoot;
    }
  };
  /** True when the device root is a test root rather than the machine's /dev: stand-in hardware is allowed. */
  const standInsAllowed = () => realRoot() !== "/dev";

  /**
   * Checks a device path for its kind and returns the node it leads to now (its realpath), or
   * the path itself while the device is unplugged. Throws DevicePathError with a sentence.
   */
  function checkDevicePath(path: string, kind: DeviceKind): string {
    const root = roots.devRoot;
    const allowed = `must be a device under ${root} (${ALLOWED_TEXT[kind]})`;
    if (!isAbsolute(path) || posix.normalize(path) !== path || path.split("/").includes("..")) throw new DevicePathError(`path: ${allowed}`);
    const rel = under(root, path);
    if (!rel || ![...NODES[kind], ...(LINKS[kind] ?? [])].some((rx) => rx.test(rel))) throw new DevicePathError(`path: ${allowed}`);
    if (!existsSync(path)) return path;
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return path;
    }
    const realRel = under(realRoot(), real);
    // socat's stand-in for a USB-serial device is a pty, which lives in the real /dev/pts.
    const standInPty = kind === "serial" && standInsAllowed() && /^\/dev\/pts\/\d+$/.test(real);
    if (!standInPty && !(realRel && NODES[kind].some((rx) => rx.test(realRel)))) throw new DevicePathError(`path: ${allowed}; it leads elsewhere`);
    return real;
  }

  /**
   * Opens a device for its kind: the path is checked, the node it leads to is opened (never
   * following a last link swapped in meanwhile) and fstat must show a character device (with
   * a test root, also a FIFO or a plain file). Errors from open are thrown as they are.
   */
  function openDevice(path: string, kind: DeviceKind, flags: number): number {
    const real = checkDevicePath(path, kind);
    const fd = openSync(real, flags | constants.O_NOFOLLOW);
    const st = fstatSync(fd);
    if (!(st.isCharacterDevice() || (standInsAllowed() && (st.isFIFO() || st.isFile())))) {
      closeSync(fd);
      throw new DevicePathError(`${path} is not a device`);
    }
    return fd;
  }

  /**
   * A network printer's address must be on the shop's LAN: RFC 1918, link-local, IPv6 unique
   * local (fc00::/7) or link-local (fe80::/10). Loopback is the box itself, which is not a
   * printer (and runs services a printer job must not reach): only a test root allows it.
   */
  function lanAddress(ip: string): boolean {
    const v = isIP(ip);
    if (v === 4) return v4Private(ip) || (standInsAllowed() && v4Loopback(ip));
    if (v !== 6) return false;
    const lower = ip.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    if (mapped) return lanAddress(mapped[1]!);
    if (lower === "::1") return standInsAllowed();
    const first = Number.parseInt(lower.split(":")[0] || "0", 16);
    return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
  }

  /** A network printer's port: the printer ports, or any port on a test root's loopback stand-in. */
  const printerPort = (ip: string, port: number) => PRINTER_PORTS.includes(port) || (standInsAllowed() && (v4Loopback(ip) || ip === "::1"));

  /**
   * Resolves a network printer's host (an address, or a name the LAN's DNS knows) to the
   * address to connect to, checked: every address the name has must be on the LAN (a name that
   * also resolves elsewhere is refused), and the port must be a printer port.
   */
  async function lanPrinterAddress(host: string, port: number): Promise<string> {
    const ips = await resolveLan(host);
    if (ips === "unknown") throw new DevicePathError(`host: ${host} is not known on this network`);
    if (ips === "outside") throw new DevicePathError("host: a network printer must be on the shop's network (a private LAN address)");
    if (!printerPort(ips[0]!, port)) throw new DevicePathError(`port: a network printer listens on ${PRINTER_PORTS.join(", ")}`);
    return ips[0]!;
  }

  /**
   * A LAN peer's addresses (a network printer, the SMS phone): the host itself when it is an
   * address, else every address the name has; "outside" unless all of them are on the LAN (a
   * name that also resolves elsewhere is refused), "unknown" when the name does not resolve.
   */
  async function resolveLan(host: string): Promise<string[] | "unknown" | "outside"> {
    let ips: string[];
    if (isIP(host)) ips = [host];
    else {
      try {
        ips = (await lookup(host, { all: true })).map((a) => a.address);
      } catch {
        return "unknown";
      }
    }
    return ips.length && ips.every(lanAddress) ? ips : "outside";
  }

  return { roots, standInsAllowed, checkDevicePath, openDevice, lanAddress, printerPort, lanPrinterAddress, resolveLan };
}
export type DeviceAccess = ReturnType<typeof deviceAccess>;
