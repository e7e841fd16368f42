import { existsSync, readdirSync, statSync } from "node:fs";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { boxSettings } from "../../../db/schema";
import { startEvdevScanner } from "../../../drivers/scanners/evdev";
import { startHidScanner } from "../../../drivers/scanners/hid";
import { startSerialScanner } from "../../../drivers/scanners/serial";
import { unprocessable } from "../../http/errors";
import type { EmployeeCaller } from "../../http/route";
import type { Clock } from "../../platform/clock";
import type { EventBus } from "../../platform/events";
import { audit } from "../audit/audit";

export const GunConfig = z.discriminatedUnion("kind", [
  z.object({ id: z.string().regex(/^[a-z0-9-]{1,30}$/), name: z.string().trim().min(1).max(60), kind: z.literal("serial"), path: z.string().max(200).regex(/^\/[\w./:+-]+$/, "must be an absolute device path"), baud: z.number().int().min(1200).max(921600).default(9600) }),
  z.object({ id: z.string().regex(/^[a-z0-9-]{1,30}$/), name: z.string().trim().min(1).max(60), kind: z.literal("evdev"), path: z.string().max(200).regex(/^\/[\w./:+-]+$/, "must be an absolute device path") }),
  z.object({ id: z.string().regex(/^[a-z0-9-]{1,30}$/), name: z.string().trim().min(1).max(60), kind: z.literal("hid"), vendorId: z.number().int().min(0).max(0xffff), productId: z.number().int().min(0).max(0xffff) }),
]);
export type Gun = z.infer<typeof GunConfig>;
const KEY = "scanners";

type Driver = (o: { onCode: (c: string) => void; onStatus: (s: "online" | "offline", d?: string) => void }) => { stop(): void };
/** Drivers by kind; tests swap in fakes behind the same interface. */
export type DriverFactory = (gun: Gun) => Driver;
export const realDrivers: DriverFactory = (gun) => (cb) =>
  gun.kind === "serial"
    ? startSerialScanner({ id: gun.id, path: gun.path, baud: gun.baud, ...cb })
    : gun.kind === "evdev"
      ? startEvdevScanner({ id: gun.id, path: gun.path, ...cb })
      : startHidScanner({ id: gun.id, vendorId: gun.vendorId, productId: gun.productId, ...cb });

/**
 * Barcode guns wired to the box. Each configured gun runs its driver; scans and status
 * changes go on the event bus, where a tablet paired with that gun (by choosing it on the
 * tracking screen) receives them over /api/v1/events.
 */
export function createScannerService({ db, clock, bus, drivers = realDrivers }: { db: Db; clock: Clock; bus: EventBus; drivers?: DriverFactory }) {
  const running = new Map<string, { stop(): void }>();
  const status = new Map<string, { status: "online" | "offline" | "unknown"; detail?: string }>();
  const now = () => clock.now().toISOString();

  async function config(): Promise<Gun[]> {
    const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, KEY) });
    if (!row) return [];
    const parsed = z.array(GunConfig).safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : [];
  }

  function startAll(guns: Gun[]) {
    for (const r of running.values()) r.stop();
    running.clear();
    status.clear();
    for (const gun of guns) {
      status.set(gun.id, { status: "unknown" });
      running.set(
        gun.id,
        drivers(gun)({
          onCode: (code) => bus.publish({ type: "scan", gun: gun.id, code, at: now() }),
          onStatus: (s, detail) => {
            status.set(gun.id, { status: s, detail });
            bus.publish({ type: "gun", gun: gun.id, status: s, detail, at: now() });
          },
        }),
      );
    }
  }

  return {
    start: async () => startAll(await config()),
    stop: () => startAll([]),
    async list() {
      return (await config()).map((g) => ({ ...g, ...(status.get(g.id) ?? { status: "unknown" as const }) }));
    },
    async save(caller: EmployeeCaller, guns: Gun[]) {
      // A serial gun's path must be a terminal device (when plugged in), never a file.
      for (const g of guns) {
        if (g.kind !== "hid" && existsSync(g.path) && !statSync(g.path).isCharacterDevice()) throw unprocessable(`path: not a ${g.kind === "serial" ? "serial" : "input"} device`);
      }
      if (new Set(guns.map((g) => g.id)).size !== guns.length) throw unprocessable("id: each gun needs its own id");
      await db.insert(boxSettings).values({ key: KEY, value: JSON.stringify(guns) }).onConflictDoUpdate({ target: boxSettings.key, set: { value: JSON.stringify(guns) } });
      await audit(db, clock.now(), caller, "configure", "scanners", null, { guns: guns.map((g) => g.id) });
      startAll(guns);
      return this.list();
    },
    /** What is attached: serial ttys (stable by-id names first) and HID devices. */
    async devices() {
      const serial: { path: string; name: string }[] = [];
      const byId = "/dev/serial/by-id";
      if (existsSync(byId)) for (const f of readdirSync(byId)) serial.push({ path: `${byId}/${f}`, name: f });
      for (const f of existsSync("/dev") ? readdirSync("/dev") : []) if (/^tty(ACM|USB)\d+$/.test(f)) serial.push({ path: `/dev/${f}`, name: f });
      // Keyboard-wedge guns appear as keyboards; their stable names end in -event-kbd.
      const keyboards: { path: string; name: string }[] = [];
      const inputs = "/dev/input/by-id";
      if (existsSync(inputs)) for (const f of readdirSync(inputs)) if (f.endsWith("-event-kbd")) keyboards.push({ path: `${inputs}/${f}`, name: f });
      let hid: { vendorId: number; productId: number; product?: string; manufacturer?: string; serialNumber?: string }[] = [];
      let hidError: string | undefined;
      try {
        const mod = (await import("node-hid")) as unknown as { devices(): typeof hid };
        hid = mod.devices().map((d) => ({ vendorId: d.vendorId, productId: d.productId, product: d.product, manufacturer: d.manufacturer, serialNumber: d.serialNumber }));
      } catch (e) {
        hidError = e instanceof Error ? e.message : String(e);
      }
      return { serial, keyboards, hid, ...(hidError ? { hid_error: hidError } : {}) };
    },
  };
}
export type ScannerService = ReturnType<typeof createScannerService>;
