import { z } from "zod";
import { ROLES, route } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";
import type { BoxEvent, EventBus } from "../../platform/events";
import { GunConfig, type ScannerService } from "./service";

const staff = { roles: ROLES };
/** Proxies and tablets drop idle connections: a comment line keeps the stream open. */
export const HEARTBEAT_MS = 15_000;

export function scannerRoutes(scanners: ScannerService, bus: EventBus) {
  return [
    route({ method: "GET", path: "/scanners/", tag: "scanners", summary: "Barcode guns wired to the box, with their state", access: staff, handler: () => scanners.list() }),
    route({
      method: "PUT",
      path: "/scanners/",
      tag: "scanners",
      summary: "Configures the guns wired to the box (serial tty or HID vendor/product)",
      access: { roles: ["admin"] },
      body: z.array(GunConfig).max(20),
      handler: ({ caller, body }) => scanners.save(caller, body),
    }),
    route({ method: "GET", path: "/scanners/devices", tag: "scanners", summary: "Serial and HID devices attached to the box", access: { roles: ["admin"] }, handler: () => scanners.devices() }),
    route({
      method: "GET",
      path: "/events",
      tag: "scanners",
      summary: "Server-sent events: scans from the paired gun (?gun=), gun states, state changes. EventSource cannot send headers, so ?token= carries the employee token.",
      access: staff,
      queryToken: "token",
      query: z.object({ token: z.string().max(2000).optional(), gun: z.string().max(30).optional() }),
      raw: true,
      handler: ({ query, request }) => {
        const enc = new TextEncoder();
        let unsubscribe = () => {};
        let beat: ReturnType<typeof setInterval> | undefined;
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            const send = (e: BoxEvent) => {
              if (query.gun && (e.type === "scan" || e.type === "gun") && e.gun !== query.gun) return;
              if (!query.gun && e.type === "scan") return; // scans go only to the tablet paired with that gun
              controller.enqueue(enc.encode(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`));
            };
            unsubscribe = bus.subscribe(send);
            controller.enqueue(enc.encode(": connected\n\n"));
            beat = setInterval(() => controller.enqueue(enc.encode(": heartbeat\n\n")), HEARTBEAT_MS);
            request.signal.addEventListener("abort", () => {
              unsubscribe();
              clearInterval(beat);
              try {
                controller.close();
              } catch {}
            });
          },
          cancel() {
            unsubscribe();
            clearInterval(beat);
          },
        });
        return new Response(stream, { headers: { ...SECURITY_HEADERS, "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" } });
      },
    }),
  ];
}
