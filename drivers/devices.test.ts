import { beforeAll, expect, test } from "bun:test";
import { closeSync, constants, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deviceAccess } from "./devices";

/** Device paths against a test root (a temp folder with stand-ins), and against a real-looking /dev. */
const dir = mkdtempSync(join(tmpdir(), "devices-"));
const dev = join(dir, "dev");
beforeAll(() => {
  mkdirSync(join(dev, "usb"), { recursive: true });
  mkdirSync(join(dev, "serial/by-id"), { recursive: true });
  mkdirSync(join(dev, "input"), { recursive: true });
  writeFileSync(join(dev, "usb/lp0"), "");
  writeFileSync(join(dev, "ttyUSB0"), "");
  writeFileSync(join(dir, "run-me.sh"), "#!/bin/sh\n");
  symlinkSync(join(dev, "ttyUSB0"), join(dev, "serial/by-id/usb-QinHeng_CH340-if00-port0"));
  symlinkSync(join(dir, "run-me.sh"), join(dev, "usb/lp1")); // an allowed name leading out of the device root
  symlinkSync("/etc/passwd", join(dev, "serial/by-id/evil"));
});
const { checkDevicePath, lanAddress, lanPrinterAddress, openDevice, standInsAllowed } = deviceAccess({ sysRoot: join(dir, "sys"), devRoot: dev });

const refused = (path: string, kind: Parameters<typeof checkDevicePath>[1]) => {
  try {
    checkDevicePath(path, kind);
    return "accepted";
  } catch (e) {
    return (e as Error).message;
  }
};

test("device paths: only allowed device names under the device root, still so after realpath", () => {
  expect(standInsAllowed()).toBe(true);
  expect(checkDevicePath(join(dev, "usb/lp0"), "usblp")).toBe(join(dev, "usb/lp0"));
  expect(checkDevicePath(join(dev, "usb/lp7"), "usblp")).toBe(join(dev, "usb/lp7")); // unplugged: saved, checked again when opened
  expect(checkDevicePath(join(dev, "serial/by-id/usb-QinHeng_CH340-if00-port0"), "serial")).toBe(join(dev, "ttyUSB0"));
  expect(refused(join(dir, "run-me.sh"), "usblp")).toContain("must be a device under");
  expect(refused(`${dev}/usb/../../run-me.sh`, "usblp")).toContain("must be a device under");
  expect(refused(`${dev}/usb/lp0/..`, "usblp")).toContain("must be a device under");
  expect(refused("/etc/passwd", "serial")).toContain("must be a device under");
  expect(refused(join(dev, "usb/lp1"), "usblp")).toContain("leads elsewhere");
  expect(refused(join(dev, "serial/by-id/evil"), "serial")).toContain("leads elsewhere");
  // A printer may never be an input device (it would type into the console), nor a gun a printer port.
  expect(refused(join(dev, "input/event0"), "usblp")).toContain("usb/lp*");
  expect(refused(join(dev, "usb/lp0"), "evdev")).toContain("input/event*");
  expect(refused("usb/lp0", "usblp")).toContain("must be a device under");
});

test("opening: a plain file stands in for a device only under a test root; a link swapped to a file outside is refused", () => {
  const fd = openDevice(join(dev, "usb/lp0"), "usblp", constants.O_WRONLY);
  expect(fd).toBeGreaterThan(2);
  closeSync(fd);
  expect(() => openDevice(join(dev, "usb/lp1"), "usblp", constants.O_WRONLY)).toThrow("leads elsewhere");
});

test("with the real /dev (a private mount namespace), files and FIFOs are not devices and loopback is not a printer", () => {
  const script = join(import.meta.dir, "devices-check.ts");
  const setup = "mount -t tmpfs none /dev && mkdir /dev/usb && touch /dev/ttyUSB0 && mkfifo /dev/usb/lp0 && mknod /dev/ttyACM0 c 1 3";
  const r = Bun.spawnSync(["unshare", "-m", "sh", "-c", `${setup} && exec "${process.execPath}" "${script}"`], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`device check failed: ${r.stderr.toString()}`);
  expect(JSON.parse(r.stdout.toString().trim().split("\n").pop()!)).toEqual({
    standIns: false,
    file: "/dev/ttyUSB0 is not a device",
    fifo: "/dev/usb/lp0 is not a device",
    chardev: "opened",
    loopback: false,
    lan: true,
  });
}, 20_000);

test("network printers: private LAN addresses and printer ports only; names are resolved and checked", async () => {
  for (const ip of ["10.0.0.5", "172.16.0.1", "172.31.255.255", "192.168.1.50", "169.254.10.1", "fd12:3456::1", "fe80::1", "::ffff:192.168.1.9"])
    expect([ip, lanAddress(ip)]).toEqual([ip, true]);
  for (const ip of ["8.8.8.8", "172.32.0.1", "172.15.0.1", "100.64.0.1", "0.0.0.0", "224.0.0.251", "2001:db8::1", "::ffff:8.8.8.8", "not-an-ip"])
    expect([ip, lanAddress(ip)]).toEqual([ip, false]);
  expect(await lanPrinterAddress("192.168.1.50", 9100)).toBe("192.168.1.50");
  expect(await lanPrinterAddress("192.168.1.50", 631)).toBe("192.168.1.50");
  await expect(lanPrinterAddress("192.168.1.50", 22)).rejects.toThrow("port: a network printer listens on 9100, 9101, 9102, 515, 631");
  await expect(lanPrinterAddress("8.8.8.8", 9100)).rejects.toThrow("host: a network printer must be on the shop's network");
  await expect(lanPrinterAddress("no-such-printer.invalid", 9100)).rejects.toThrow("is not known on this network");
  // Loopback is a stand-in printer under a test root only (see the mount-namespace test for the real /dev).
  expect(await lanPrinterAddress("localhost", 4242)).toMatch(/^(127\.0\.0\.1|::1)$/);
});
