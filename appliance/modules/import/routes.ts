import { z } from "zod";
import { HQ_STAFF, route } from "../../http/route";
import { ImportStatusView } from "./model";
import type { ImportService } from "./service";

// Moving in and leaving concern every shop on the box and reach out to the network: HQ staff only.
export function importRoutes(imports: ImportService) {
  return [
    route({
      method: "POST",
      path: "/import/",
      tag: "import",
      summary: "Starts importing from the old system (its API URL, agent login and admin PIN); answers at once, progress on GET",
      access: HQ_STAFF,
      body: z.object({
        from: z.string().min(1).max(500),
        user: z.string().min(1).max(100),
        password: z.string().min(1).max(200),
        pin: z.string().regex(/^\d{4,8}$/, "must be 4 to 8 digits"),
        dry_run: z.boolean().optional(),
      }),
      response: ImportStatusView,
      handler: ({ caller, body }) => imports.start(caller, body),
    }),
    route({
      method: "GET",
      path: "/import/",
      tag: "import",
      summary: "The running or last import: progress, report, and (once, to whoever started it) the new PINs",
      access: HQ_STAFF,
      response: ImportStatusView,
      handler: ({ caller }) => imports.status(caller),
    }),
    route({
      method: "POST",
      path: "/import/cancel",
      tag: "import",
      summary: "Stops the running import after its current batch (run it again to resume)",
      access: HQ_STAFF,
      response: ImportStatusView,
      handler: () => imports.cancel(),
    }),
    route({
      method: "GET",
      path: "/export/",
      tag: "import",
      summary: "Everything on the box as a zip: one CSV per table and a consistent copy of the database",
      access: HQ_STAFF,
      raw: true,
      handler: ({ request }) => imports.exportZip(request.signal),
    }),
  ];
}
