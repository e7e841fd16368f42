// The scanners module's contract with the UI: the guns its routes take and answer. The UI
// imports these types (type-only) from here, never from the service.
import { z } from "zod";
import { SettingsInvalid } from "../printing/model";

const path = z
  .string()
  .max(200)
  .regex(/^\/[\w./:+-]+$/, "must be an absolute device path");
/** Every gun: an id, a name, and the shop it is kept for (its scans go to that shop's tablets only); none: every shop on the box. */
const common = {
  id: z.string().regex(/^[a-z0-9-]{1,30}$/),
  name: z.string().trim().min(1).max(60),
  agent_id: z.number().int().positive().nullable().default(null),
};
export const GunConfig = z.discriminatedUnion("kind", [
  z.object({ ...common, kind: z.literal("serial"), path, baud: z.number().int().min(1200).max(921600).default(9600) }),
  z.object({ ...common, kind: z.literal("evdev"), path }),
  z.object({ ...common, kind: z.literal("hid"), vendorId: z.number().int().min(0).max(0xffff), productId: z.number().int().min(0).max(0xffff) }),
]);
export type Gun = z.infer<typeof GunConfig>;
/** A gun as PUT /scanners/ takes it (agent_id may be left out: every shop). */
export type GunInput = z.input<typeof GunConfig>;
/** What PUT /scanners/ takes: the whole list of guns. */
export const GunList = z.array(GunConfig).max(20);

/** A gun's reader state: online, offline (with why), or unknown until its driver reports. */
export const GunStatus = z.object({ status: z.enum(["online", "offline", "unknown"]), detail: z.string().optional() });
/** A gun as GET /scanners/ answers it: its settings and its reader's state. */
export const GunState = z.intersection(GunConfig, GunStatus);
export type GunState = z.infer<typeof GunState>;

/** The settings screen's list: the guns, and `invalid` when what is stored no longer validates (then no gun is read). */
export const GunSettings = z.object({ guns: z.array(GunState), invalid: SettingsInvalid.optional() });
export type GunSettings = z.infer<typeof GunSettings>;

/** What is attached to the box that could be a gun (GET /scanners/devices). */
export const AttachedDevices = z.object({
  serial: z.array(z.object({ path: z.string(), name: z.string(), scanner: z.boolean() })),
  /** `scanner`: the device identifies as a barcode scanner (a shop's admin may save only those; issue 22). */
  keyboards: z.array(z.object({ path: z.string(), name: z.string(), scanner: z.boolean() })),
  hid: z.array(
    z.object({
      vendorId: z.number().int(),
      productId: z.number().int(),
      product: z.string().optional(),
      manufacturer: z.string().optional(),
      serialNumber: z.string().optional(),
      scanner: z.boolean(),
    }),
  ),
  hid_error: z.string().optional(),
});
export type AttachedDevices = z.infer<typeof AttachedDevices>;
