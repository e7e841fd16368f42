import { z } from "zod";
import { pdfResponse } from "../../../drivers/pdf/document";
import { ROLES, route } from "../../http/route";
import { IdParams, IsoDate } from "../../domain/schemas";
import { Location } from "../tracking/model";
import { SECURITY_HEADERS } from "../../http/security";
import type { Clock } from "../../platform/clock";
import type { EmployeeCaller } from "../../http/route";
import type { ReceiptData } from "../../../drivers/printers/receipt";
import type { PrintJournal } from "./journal";
import { DeviceRow, Encoding, JobPayload, JobReport, Port, PrinterConfig, PrinterSettings, PrintJob, PrintResult, RetryResult } from "./model";
import type { PrintService } from "./service";
import { ticketPdf } from "./ticketPdf";

const ids = z
  .union([z.string().max(2000), z.array(z.string().max(20)).max(500)])
  .transform((v) =>
    [v]
      .flat()
      .flatMap((s) => s.split(","))
      .filter(Boolean)
      .map(Number),
  )
  .refine((a) => a.every((n) => Number.isInteger(n) && n > 0), "must be item ids");

export function printingRoutes(deps: { clock: Clock; receipt: (caller: EmployeeCaller, id: number, items?: number[]) => Promise<ReceiptData> }) {
  return [
    route({
      method: "GET",
      path: "/tickets/pdf/:id",
      tag: "printing",
      summary: "The ticket as a PDF (optionally some items: ticketSubCategories=1,2); preview=true shows it inline with a filename header",
      access: { roles: ROLES },
      queryToken: "Employee",
      params: IdParams,
      query: z.object({
        ticketSubCategories: ids.optional(),
        preview: z.enum(["true", "false"]).optional(),
        Employee: z.string().max(2000).optional(),
        Agent: z.string().max(2000).optional(),
      }),
      raw: true,
      handler: async ({ caller, params, query }) => {
        const { pdf, filename } = await ticketPdf(await deps.receipt(caller, params.id, query.ticketSubCategories), deps.clock);
        return pdfResponse(pdf, filename, query.preview === "true", SECURITY_HEADERS);
      },
    }),
  ];
}

const PrintBody = z.object({
  ticket_id: z.number().int().positive(),
  port: Port.optional(),
  printer: z.string().max(40).optional(),
  device: z.string().max(60).optional(),
  encoding: Encoding.optional(),
  item_ids: z.array(z.number().int().positive()).max(500).optional(),
  variant: z.enum(["normal", "smaller", "nologo"]).optional(),
  mini: z.boolean().optional(),
  paper: z.enum(["80mm", "58mm"]).optional(),
});

/** Rack names to print: each a location as items take it (tracking's bounds), none empty, no repeats. */
const RackLabelsBody = PrintBody.omit({ ticket_id: true, item_ids: true, mini: true, paper: true }).extend({
  names: z
    .array(Location.refine((n) => n !== "", "names: a rack needs a name"))
    .min(1, "names: type at least one rack name")
    .max(100, "names: at most 100 rack labels at a time")
    .transform((a) => [...new Set(a)]),
});

export function printJournalRoutes(journal: PrintJournal, printing: PrintService) {
  return [
    route({
      method: "GET",
      path: "/printers/",
      tag: "printing",
      summary: "Printers set up on the box (none while the stored settings are invalid)",
      access: { roles: ROLES },
      response: z.array(PrinterConfig),
      handler: () => journal.printers(),
    }),
    route({
      method: "GET",
      path: "/printers/settings",
      tag: "printing",
      summary:
        "The printers screen's list: the saved printers, and `invalid` with what is wrong when the stored settings no longer validate (saving a good list replaces them)",
      access: { roles: ["admin"] },
      response: PrinterSettings,
      handler: () => journal.settings(),
    }),
    route({
      method: "PUT",
      path: "/printers/",
      tag: "printing",
      summary: "Sets up the box's printers (language, paper, model, where they are: an allowed device, or a LAN address at a printer port); audited",
      access: { roles: ["admin"] },
      body: z.array(PrinterConfig).max(20),
      response: z.array(PrinterConfig),
      handler: ({ caller, body }) => journal.savePrinters(caller, body),
    }),
    route({
      method: "GET",
      path: "/printers/devices",
      tag: "printing",
      summary: "Printers of the box: the saved ones with their state, and devices attached now (spec §3 printer device fields)",
      access: { roles: ROLES },
      response: z.array(DeviceRow),
      handler: () => printing.devices(),
    }),
    route({
      method: "POST",
      path: "/printers/:id/test",
      tag: "printing",
      summary: "Prints a sample label or receipt; audited",
      access: { roles: ["admin"] },
      params: z.object({ id: z.string().max(40) }),
      response: PrintResult,
      handler: ({ caller, params }) => printing.test(caller, params.id),
    }),
    route({
      method: "POST",
      path: "/print/labels",
      tag: "printing",
      summary:
        "Prints item labels (one per piece, or mini labels one per action amount; at most 500 a request); confirms the ticket; the items become MARKED with tomorrow's process date",
      access: { roles: ROLES },
      body: PrintBody,
      idempotent: true,
      response: PrintResult,
      handler: ({ caller, body }) => printing.labels(caller, body),
    }),
    route({
      method: "POST",
      path: "/print/rackLabels",
      tag: "printing",
      summary: "Prints rack labels (issue 25): one label a rack name, its rack code to scan before the bags put there; at most 100",
      access: { roles: ROLES },
      body: RackLabelsBody,
      idempotent: true,
      response: PrintResult,
      handler: ({ caller, body }) => printing.rackLabels(caller, body),
    }),
    route({
      method: "POST",
      path: "/print/receipt",
      tag: "printing",
      summary: "Confirms the ticket and prints its receipt (ESC/POS)",
      access: { roles: ROLES },
      body: PrintBody,
      idempotent: true,
      response: PrintResult,
      handler: ({ caller, body }) => printing.receipt(caller, body),
    }),
    route({
      method: "POST",
      path: "/print/zReport",
      tag: "printing",
      summary:
        "Prints a day's Z report (the drawer: expected, counted, variance per tender) on a receipt printer of the box (the first ESC/POS one unless named; HQ: agent); audited",
      access: { roles: ["admin", "manager"] },
      body: z.object({
        date: IsoDate,
        agent: z.number().int().positive().optional(),
        printer: z.string().max(40).optional(),
        paper: z.enum(["80mm", "58mm"]).optional(),
      }),
      idempotent: true,
      response: PrintResult,
      handler: ({ caller, body }) => printing.zReport(caller, body),
    }),
    route({
      method: "GET",
      path: "/printJobs/",
      tag: "printing",
      summary: "The print journal, newest first (optional ticket_id)",
      access: { roles: ROLES },
      query: z.object({ ticket_id: z.coerce.number().int().positive().optional(), limit: z.coerce.number().int().min(1).max(500).default(50) }),
      response: z.array(PrintJob),
      handler: ({ caller, query }) => journal.list(caller, query),
    }),
    route({
      method: "POST",
      path: "/printJobs/:id/retry",
      tag: "printing",
      summary: "Reprints from a failed job on",
      access: { roles: ROLES },
      params: IdParams,
      response: RetryResult,
      handler: ({ caller, params }) => journal.retry(caller, params.id),
    }),
    route({
      method: "GET",
      path: "/printJobs/:id/payload",
      tag: "printing",
      summary: "A job's bytes (base64), for the tablet to send again",
      access: { roles: ROLES },
      params: IdParams,
      response: JobPayload,
      handler: ({ caller, params }) => journal.payload(caller, params.id),
    }),
    route({
      method: "POST",
      path: "/printJobs/:id/result",
      tag: "printing",
      summary: "The tablet reports a job it sent itself (BLE, RawBT): done, or failed with the reason",
      access: { roles: ROLES },
      params: IdParams,
      body: z.object({ ok: z.boolean(), error: z.string().max(300).optional() }),
      response: JobReport,
      handler: ({ caller, params, body }) => journal.report(caller, params.id, body.ok, body.error),
    }),
  ];
}
