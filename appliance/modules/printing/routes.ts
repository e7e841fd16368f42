import { z } from "zod";
import { pdfResponse } from "../../../drivers/pdf/document";
import { ROLES, route } from "../../http/route";
import { IdParams } from "../../http/schemas";
import { SECURITY_HEADERS } from "../../http/security";
import type { Clock } from "../../platform/clock";
import type { EmployeeCaller } from "../../http/route";
import type { ReceiptData } from "../../../drivers/printers/receipt";
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
