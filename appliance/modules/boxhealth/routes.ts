import { route } from "../../http/route";
import { BoxHealth } from "./model";
import type { BoxHealthService } from "./service";

export function boxHealthRoutes(service: BoxHealthService) {
  return [
    route({
      method: "GET",
      path: "/box/health",
      tag: "box",
      summary:
        "The box's health (admins): printers and guns with their state and last good job, disk free, database size and last check, the HQ link's lag, the last backup, version, uptime, certificate, and what needs a person",
      access: { roles: ["admin"] },
      response: BoxHealth,
      handler: () => service.health(),
    }),
  ];
}
