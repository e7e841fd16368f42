// The printing module's contract with the UI: the shapes its routes take and answer. The UI
// imports these types (type-only) from here, never from the journal or the service.
import { z } from "zod";
import type { PrinterDevice } from "../../../drivers/printers/discovery";
import { PRINTER_MODELS } from "../../../drivers/printers/models";

const path = z
  .string()
  .max(200)
  .regex(/^\/[\w./:+-]+$/, "must be an absolute device path");
const usbId = z.string().regex(/^[0-9a-f]{4}$/, "must be 4 hex digits");
/** Spec §9 encodings: PPLZ and PPLA for labels, ESC/POS for receipts. */
export const Encoding = z.enum(["PPLZ", "PPLA", "ESCPOS"]);
export type Encoding = z.infer<typeof Encoding>;
export const PrinterConfig = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/, "lowercase letters, digits and dashes"),
  name: z.string().trim().min(1).max(60),
  /** The language the printer speaks (spec §9 encodings). */
  language: Encoding,
  paper: z.enum(["80mm", "58mm"]).default("80mm"),
  /** A model of drivers/printers/models.ts, when known. */
  model: z
    .string()
    .max(40)
    .refine((m) => PRINTER_MODELS.some((x) => x.id === m), "no such printer model")
    .optional(),
  target: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("usblp"), path }),
    // Spec §9: USB-serial printers at 9600 baud, chosen by vendor and product id (the tty number changes on replug).
    z
      .object({
        kind: z.literal("serial"),
        path: path.optional(),
        vendorId: usbId.optional(),
        productId: usbId.optional(),
        serialNumber: z.string().max(60).optional(),
        baud: z.number().int().min(1200).max(921600).default(9600),
      })
      .refine((t) => t.path || (t.vendorId && t.productId), "a serial printer needs a path or a vendor and product id"),
    z.object({
      kind: z.literal("tcp"),
      host: z
        .string()
        .max(100)
        .regex(/^[\w.:-]+$/, "an IP address or a host name"),
      port: z.number().int().min(1).max(65535).default(9100),
    }),
    z.object({ kind: z.literal("rfcomm"), path }),
  ]),
});
export type Printer = z.infer<typeof PrinterConfig>;

/** Stored hardware settings that no longer validate: what is wrong with them (printers and guns screens). */
export const SettingsInvalid = z.object({ message: z.string() });
export type SettingsInvalid = z.infer<typeof SettingsInvalid>;
/** The settings screen's list: the saved printers, and `invalid` when what is stored no longer validates (then no printer is used). */
export const PrinterSettings = z.object({ printers: z.array(PrinterConfig), invalid: SettingsInvalid.optional() });
export type PrinterSettings = z.infer<typeof PrinterSettings>;

/** Printers the tablet drives itself (spec §9 port codes): BLE through Web Bluetooth, RawBT through an intent. */
export const TabletPort = z.enum(["ble", "rbt"]);
export type TabletPort = z.infer<typeof TabletPort>;
/** Spec §9 port codes: u (USB on the box), b (Bluetooth on the box), ble and rbt (the tablet's own). */
export const Port = z.enum(["u", "b", "ble", "rbt"]);
export type Port = z.infer<typeof Port>;

/** A device row of the printer dialog and the printer settings: saved printers and attached devices, with honest state (spec §3 printer device fields). */
export const DeviceRow = z.object({
  id: z.string(),
  name: z.string(),
  serialNumber: z.string(),
  productName: z.string(),
  manufacturerName: z.string(),
  port: z.enum(["u", "b"]),
  class: z.enum(["label", "receipt", "unknown"]),
  encoding: Encoding,
  saved: z.boolean(),
  /** online: the device is attached now; offline: set up but not found; unknown: a network printer (not probed). */
  state: z.enum(["online", "offline", "unknown"]),
  where: z.string(),
  /** For a device nobody has saved yet: the printer settings that would save it. */
  setup: PrinterConfig.optional(),
});
export type DeviceRow = z.infer<typeof DeviceRow> & Pick<PrinterDevice, "port" | "class">;

/** What a print answers: the journal's job ids, and for the tablet's ports the bytes to send (base64, one per job). */
export const PrintResult = z.object({ jobs: z.array(z.number().int()), payloads: z.array(z.object({ job: z.number().int(), data: z.string() })).optional() });
export type PrintResult = z.infer<typeof PrintResult>;

/** A row of the print journal (GET /printJobs/). */
export const PrintJob = z.object({
  id: z.number().int(),
  kind: z.string(),
  printer: z.string(),
  encoding: z.string(),
  ticket_id: z.number().int().nullable(),
  ticket_sub_category_id: z.number().int().nullable(),
  status: z.enum(["queued", "sending", "done", "failed"]),
  error: z.string().nullable(),
  attempts: z.number().int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type PrintJob = z.infer<typeof PrintJob>;

/** A reprint from a failed job on: the jobs queued again, in order. */
export const RetryResult = z.object({ requeued: z.number().int(), jobs: z.array(z.number().int()) });
export type RetryResult = z.infer<typeof RetryResult>;
/** A job's bytes for the tablet to send itself (base64). */
export const JobPayload = z.object({ id: z.number().int(), encoding: Encoding, data: z.string() });
export type JobPayload = z.infer<typeof JobPayload>;
/** What a tablet's report of a job it sent itself made of the job. */
export const JobReport = z.object({ id: z.number().int(), status: z.enum(["done", "failed"]) });
export type JobReport = z.infer<typeof JobReport>;
