import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import { agentNames } from "../agents/reads";
import { type DeviceAccess, DevicePathError } from "../../../drivers/devices";
import { startEvdevScanner } from "../../../drivers/scanners/evdev";
import { startHidScanner } from "../../../drivers/scanners/hid";
import { evdevScannerReason, type HidInfo, hidIsScanner, serialScannerReason } from "../../../drivers/scanners/identify";
import { startSerialScanner } from "../../../drivers/scanners/serial";
import { unprocessable } from "../../platform/errors";
import { type EmployeeCaller, isHqStaff } from "../auth/caller";
import type { Clock } from "../../platform/clock";
import type { BoxEventBus as EventBus } from "../events/model";
import { audit } from "../audit/audit";
import { storedList } from "../../platform/storedList";
import { listChanges } from "../printing/journal";
import { type AttachedDevices, type Gun, GunConfig, type GunSettings, type GunState } from "./model";

const KEY = "scanners";

type Driver = (o: { onCode: (c: string) => void; onStatus: (s: "online" | "offline", d?: string) => void }) => { stop(): void };
/** Drivers by kind; tests swap in fakes behind the same interface. */
export type DriverFactory = (gun: Gun) => Driver;
/** The real readers, opening only the hardware `devices` allows. */
export const realDrivers =
  (devices: DeviceAccess): DriverFactory =>
  (gun) =>
  (cb) =>
    gun.kind === "serial"
      ? startSerialScanner({ id: gun.id, devices, path: gun.path, baud: gun.baud, ...cb })
      : gun.kind === "evdev"
        ? startEvdevScanner({ id: gun.id, devices, path: gun.path, ...cb })
        : startHidScanner({ id: gun.id, vendorId: gun.vendorId, productId: gun.productId, ...cb });

/**
 * Barcode guns wired to the box. Each configured gun runs its driver; scans and status
 * changes go on the event bus, where a tablet paired with that gun (by choosing it on the
 * tracking screen) receives them over /api/v1/events.
 */
export function createScannerService({
  db,
  clock,
  bus,
  devices,
  log = console.error,
  drivers = realDrivers(devices),
}: {
  db: Db;
  clock: Clock;
  bus: EventBus;
  devices: DeviceAccess;
  log?: (m: string) => void;
  drivers?: DriverFactory;
}) {
  const running = new Map<string, { stop(): void }>();
  const status = new Map<string, { status: "online" | "offline" | "unknown"; detail?: string }>();
  /** When each gun last read a code since the box started (the box's health panel). */
  const lastScan = new Map<string, string>();
  const now = () => clock.now().toISOString();

  const stored = storedList({ db, key: KEY, schema: GunConfig, log });
  /** The saved guns; none while the stored settings are invalid (settings() says why). */
  const config = async (): Promise<Gun[]> => (await stored()).list;
  /** Admins see every gun (they set the box up); anyone else the guns their shop may pair with. */
  const visible = (caller: EmployeeCaller, guns: Gun[]): GunState[] =>
    guns
      .filter((g) => caller.employee.role === "admin" || caller.agent.is_hq || g.agent_id === null || g.agent_id === caller.agent.id)
      .map((g) => ({ ...g, ...(status.get(g.id) ?? { status: "unknown" as const }) }));

  function startAll(guns: Gun[]) {
    for (const r of running.values()) r.stop();
    running.clear();
    status.clear();
    for (const gun of guns) {
      status.set(gun.id, { status: "unknown" });
      running.set(
        gun.id,
        drivers(gun)({
          onCode: (code) => {
            lastScan.set(gun.id, now());
            bus.publish({ type: "scan", gun: gun.id, agent_id: gun.agent_id, code, at: now() });
          },
          onStatus: (s, detail) => {
            status.set(gun.id, { status: s, detail });
            bus.publish({ type: "gun", gun: gun.id, agent_id: gun.agent_id, status: s, detail, at: now() });
          },
        }),
      );
    }
  }

  /** A HID device is a scanner by its maker, or by what the attached device says of itself (usage page, names). */
  async function hidScanner(vendorId: number, productId: number): Promise<boolean> {
    if (hidIsScanner({ vendorId, productId })) return true;
    try {
      const mod = (await import("node-hid")) as unknown as { devices(): HidInfo[] };
      return mod.devices().some((d) => d.vendorId === vendorId && d.productId === productId && hidIsScanner(d));
    } catch {
      return false; // no libusb: nothing attached can speak for it
    }
  }

  return {
    start: async () => startAll(await config()),
    stop: () => startAll([]),
    list: async (caller: EmployeeCaller): Promise<GunState[]> => visible(caller, await config()),
    /** Every gun of the box with its state and its last scan since the box started (the health panel; admins). */
    health: async () =>
      (await config()).map((g) => ({
        id: g.id,
        name: g.name,
        ...(status.get(g.id) ?? { status: "unknown" as const }),
        last_scan_at: lastScan.get(g.id) ?? null,
      })),
    /** The guns as the settings screen shows them: with `invalid` when the stored list no longer validates. */
    async settings(caller: EmployeeCaller): Promise<GunSettings> {
      const { list, invalid } = await stored();
      return { guns: visible(caller, list), ...(invalid ? { invalid } : {}) };
    },
    /** Box hardware: any admin of a shop using the box sets the guns up; the audit row says who changed what. */
    async save(caller: EmployeeCaller, guns: Gun[]) {
      if (new Set(guns.map((g) => g.id)).size !== guns.length) throw unprocessable("id: each gun needs its own id");
      for (const g of guns) {
        // Only a device of its kind under the device root; checked again (fstat) each time the reader opens it.
        if (g.kind !== "hid") {
          try {
            devices.checkDevicePath(g.path, g.kind);
          } catch (e) {
            throw e instanceof DevicePathError ? unprocessable(e.message) : e;
          }
        }
      }
      const before = await config();
      // Issue 22: a keyboard is an input device too; saved as a gun it would stream what is typed
      // on the box to tablets. A shop's admin adds only devices that identify as scanners; HQ
      // staff may add any (a no-name gun), and a gun already saved may stay as it is.
      if (!isHqStaff(caller)) {
        const same = (g: Gun) => before.some((b) => JSON.stringify({ ...b, name: "", agent_id: null }) === JSON.stringify({ ...g, name: "", agent_id: null }));
        for (const g of guns) {
          if (same(g)) continue;
          // A serial port streams whatever is wired to it (a modem, a console cable, a scale) just
          // as well: the same rule (issue 22), by its by-id name or its USB device in sysfs.
          const scanner =
            g.kind === "hid"
              ? await hidScanner(g.vendorId, g.productId)
              : !!(g.kind === "evdev" ? evdevScannerReason(g.path, devices.roots) : serialScannerReason(g.path, devices.roots));
          if (!scanner)
            throw unprocessable(
              `${g.kind === "hid" ? "vendorId" : "path"}: ${g.kind === "hid" ? "this device" : g.path} does not identify as a barcode scanner (by its name or maker); only head office staff may add another device as a gun`,
            );
        }
      }
      for (const g of guns) {
        if (g.agent_id === null) continue;
        // A shop's admin keeps a gun for its own shop only (HQ for any); a gun already kept for
        // another shop may stay so. Another shop answers as if it did not exist.
        const unchanged = before.some((b) => b.id === g.id && b.agent_id === g.agent_id);
        const mayName = caller.agent.is_hq || g.agent_id === caller.agent.id || unchanged;
        if (!mayName || !(await agentNames(db, [g.agent_id])).has(g.agent_id)) throw unprocessable("agent_id: no such shop");
      }
      await db.transaction(async (tx) => {
        await tx
          .insert(boxSettings)
          .values({ key: KEY, value: JSON.stringify(guns) })
          .onConflictDoUpdate({ target: boxSettings.key, set: { value: JSON.stringify(guns) } });
        await audit(tx, clock.now(), caller, "configure", "scanners", null, listChanges(before, guns));
      });
      startAll(guns);
      return this.list(caller);
    },
    /** What is attached: serial ttys (stable by-id names first) and HID devices. */
    async devices(): Promise<AttachedDevices> {
      const dev = devices.roots.devRoot;
      const serial: AttachedDevices["serial"] = [];
      const byId = join(dev, "serial/by-id");
      const add = (path: string, name: string) => serial.push({ path, name, scanner: !!serialScannerReason(path, devices.roots) });
      if (existsSync(byId)) for (const f of readdirSync(byId)) add(`${byId}/${f}`, f);
      for (const f of existsSync(dev) ? readdirSync(dev) : []) if (/^tty(ACM|USB)\d+$/.test(f)) add(join(dev, f), f);
      // Keyboard-wedge guns appear as keyboards; their stable names end in -event-kbd.
      const keyboards: AttachedDevices["keyboards"] = [];
      const inputs = join(dev, "input/by-id");
      if (existsSync(inputs))
        for (const f of readdirSync(inputs))
          if (f.endsWith("-event-kbd")) keyboards.push({ path: `${inputs}/${f}`, name: f, scanner: !!evdevScannerReason(`${inputs}/${f}`, devices.roots) });
      let hid: AttachedDevices["hid"] = [];
      let hidError: string | undefined;
      try {
        const mod = (await import("node-hid")) as unknown as { devices(): (HidInfo & { serialNumber?: string })[] };
        hid = mod.devices().map((d) => ({
          vendorId: d.vendorId,
          productId: d.productId,
          product: d.product,
          manufacturer: d.manufacturer,
          serialNumber: d.serialNumber,
          scanner: hidIsScanner(d),
        }));
      } catch (e) {
        hidError = e instanceof Error ? e.message : String(e);
      }
      return { serial, keyboards, hid, ...(hidError ? { hid_error: hidError } : {}) };
    },
  };
}
export type ScannerService = ReturnType<typeof createScannerService>;
