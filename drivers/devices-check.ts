/**
 * Run by devices.test.ts in a private mount namespace whose /dev is an empty tmpfs: the
 * device root is then the real /dev path, as on a box, and no stand-in may pass for a device.
 */
import { constants } from "node:fs";
import { deviceAccess } from "./devices";

const { lanAddress, openDevice, standInsAllowed } = deviceAccess({ sysRoot: "/sys", devRoot: "/dev" });

const tryOpen = (path: string, kind: "usblp" | "serial") => {
  try {
    openDevice(path, kind, constants.O_RDONLY | constants.O_NONBLOCK);
    return "opened";
  } catch (e) {
    return (e as Error).message;
  }
};
console.log(
  JSON.stringify({
    standIns: standInsAllowed(),
    file: tryOpen("/dev/ttyUSB0", "serial"),
    fifo: tryOpen("/dev/usb/lp0", "usblp"),
    chardev: tryOpen("/dev/ttyACM0", "serial"),
    loopback: lanAddress("127.0.0.1") || lanAddress("::1"),
    lan: lanAddress("192.168.1.50"),
  }),
);
