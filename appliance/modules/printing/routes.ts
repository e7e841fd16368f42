import { z } from "zod";
import { pdfResponse } from "../../../drivers/pdf/document";
import { ROLES, route } from "../../http/route";
import { IdParams } from "../../http/schemas";
import { SECURITY_HEADERS } from "../../http/security";
import type { Clock } from "../../platform/clock";
import type { EmployeeCaller } from "../../http/route";
import type { ReceiptData } from "../../../drivers/printers/receipt";
import { PrinterConfig } from "./journal";
import { ticketPdf } from "./ticketPdf";

const ids = z
  .union([z.string().max(2000), z.array(z.string().max(20)).max(500)])
  .transform((v) => [v].flat().flatMap((s) => s.split(",")).filter(Boolean).map(Number))
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
      query: z.object({ ticketSubCategories: ids.optional(), preview: z.enum(["true", "false"]).optional(), Employee: z.string().max(2000).optional(), Agent: z.string().max(2000).optional() }),
      raw: true,
      handler: async ({ caller, params, query }) => {
        const { pdf, filename } = await ticketPdf(await deps.receipt(caller, params.id, query.ticketSubCategories), deps.clock);
        return pdfResponse(pdf, filename, query.preview === "true", SECURITY_HEADERS);
      },
    }),
  ];
}

export function printJournalRoutes(deps: {
  journal: import("./journal").PrintJournal;
  printLabels: (caller: EmployeeCaller, ticketId: number, printer: string, itemIds?: number[], variant?: "normal" | "smaller" | "nologo") => Promise<{ jobs: number[] }>;
  printReceipt: (caller: EmployeeCaller, ticketId: number, printer: string) => Promise<{ jobs: number[] }>;
}) {
  const { journal } = deps;
  return [
    route({ method: "GET", path: "/printers/", tag: "printing", summary: "Printers set up on the box", access: { roles: ROLES }, handler: () => journal.printers() }),
    route({ method: "PUT", path: "/printers/", tag: "printing", summary: "Sets up the box's printers (language, paper, where they are)", access: { roles: ["admin"] }, body: z.array(PrinterConfig).max(20), handler: ({ body }) => journal.savePrinters(body) }),
    route({
      method: "POST",
      path: "/print/labels",
      tag: "printing",
      summary: "Prints item labels (one per piece); the items become MARKED with tomorrow's process date",
      access: { roles: ROLES },
      body: z.object({ ticket_id: z.number().int().positive(), printer: z.string().max(30), item_ids: z.array(z.number().int().positive()).max(500).optional(), variant: z.enum(["normal", "smaller", "nologo"]).optional() }),
      idempotent: true,
      handler: ({ caller, body }) => deps.printLabels(caller, body.ticket_id, body.printer, body.item_ids, body.variant),
    }),
    route({
      method: "POST",
      path: "/print/receipt",
      tag: "printing",
      summary: "Confirms the ticket and prints its receipt",
      access: { roles: ROLES },
      body: z.object({ ticket_id: z.number().int().positive(), printer: z.string().max(30) }),
      idempotent: true,
      handler: ({ caller, body }) => deps.printReceipt(caller, body.ticket_id, body.printer),
    }),
    route({
      method: "GET",
      path: "/printJobs/",
      tag: "printing",
      summary: "The print journal, newest first (optional ticket_id)",
      access: { roles: ROLES },
      query: z.object({ ticket_id: z.coerce.number().int().positive().optional(), limit: z.coerce.number().int().min(1).max(500).default(50) }),
      handler: ({ query }) => journal.list(query),
    }),
    route({ method: "POST", path: "/printJobs/:id/retry", tag: "printing", summary: "Reprints from a failed job on", access: { roles: ROLES }, params: IdParams, handler: ({ params }) => journal.retry(params.id) }),
  ];
}
