import { z } from "zod";
import { ROLES, route } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";
import { type BoxEvent, type BoxEventBus as EventBus, eventVisibleTo } from "../events/model";
import { AttachedDevices, GunList, GunSettings, GunState } from "./model";
import type { ScannerService } from "./service";

const staff = { roles: ROLES };
/** Proxies and tablets drop idle connections: a comment line keeps the stream open. */
export const HEARTBEAT_MS = 15_000;

export function scannerRoutes(
  scanners: ScannerService,
  bus: EventBus,
  deps: {
    /** Is the session behind this stream still on (not logged out, revoked, expired or disabled)? */
    sessionLive: (authorization: string, jti: string) => Promise<boolean>;
    /** How often an open stream looks its session up again. */
    recheckMs: number;
  },
) {
  return [
    route({
      method: "GET",
      path: "/scanners/",
      tag: "scanners",
      summary:
        "Barcode guns wired to the box, with their state: admins see all (they set the box up), others the guns their shop may use (none while the stored settings are invalid)",
      access: staff,
      response: z.array(GunState),
      handler: ({ caller }) => scanners.list(caller),
    }),
    route({
      method: "GET",
      path: "/scanners/settings",
      tag: "scanners",
      summary:
        "The guns screen's list: the guns with their state, and `invalid` with what is wrong when the stored settings no longer validate (saving a good list replaces them)",
      access: { roles: ["admin"] },
      response: GunSettings,
      handler: ({ caller }) => scanners.settings(caller),
    }),
    route({
      method: "PUT",
      path: "/scanners/",
      tag: "scanners",
      summary: "Configures the guns wired to the box (serial tty, input device or HID vendor/product; optionally kept for one shop); audited",
      access: { roles: ["admin"] },
      body: GunList,
      response: z.array(GunState),
      handler: ({ caller, body }) => scanners.save(caller, body),
    }),
    route({
      method: "GET",
      path: "/scanners/devices",
      tag: "scanners",
      summary: "Serial and HID devices attached to the box",
      access: { roles: ["admin"] },
      response: AttachedDevices,
      handler: () => scanners.devices(),
    }),
    route({
      method: "GET",
      path: "/events",
      tag: "scanners",
      summary:
        "Server-sent events: scans from the paired gun (?gun=), gun states, the caller's shop's print jobs (HQ: every shop's). EventSource cannot send headers, so ?token= carries the employee token. The stream ends when the session does.",
      access: staff,
      queryToken: "token",
      query: z.object({ token: z.string().max(2000).optional(), gun: z.string().max(30).optional() }),
      raw: true,
      handler: ({ caller, query, request }) => {
        const enc = new TextEncoder();
        const header = request.headers.get("authorization") ?? `token ${query.token ?? ""}`;
        let stop = () => {};
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            const send = (e: BoxEvent) => {
              if (!eventVisibleTo(e, caller)) return;
              if (query.gun && (e.type === "scan" || e.type === "gun") && e.gun !== query.gun) return;
              if (!query.gun && e.type === "scan") return; // scans go only to the tablet paired with that gun
              controller.enqueue(enc.encode(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`));
            };
            const unsubscribe = bus.subscribe(send);
            controller.enqueue(enc.encode(": connected\n\n"));
            const beat = setInterval(() => controller.enqueue(enc.encode(": heartbeat\n\n")), HEARTBEAT_MS);
            // A logged-out, revoked or expired session stops receiving: the session is looked
            // up again now and then (one indexed read a stream), and the stream closed.
            const check = setInterval(async () => {
              if (await deps.sessionLive(header, caller.jti)) return;
              try {
                controller.enqueue(enc.encode('event: end\ndata: {"reason":"session ended"}\n\n'));
                controller.close();
              } catch {}
              stop();
            }, deps.recheckMs);
            stop = () => {
              unsubscribe();
              clearInterval(beat);
              clearInterval(check);
            };
            request.signal.addEventListener("abort", () => {
              stop();
              try {
                controller.close();
              } catch {}
            });
          },
          cancel() {
            stop();
          },
        });
        return new Response(stream, {
          headers: { ...SECURITY_HEADERS, "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" },
        });
      },
    }),
  ];
}
