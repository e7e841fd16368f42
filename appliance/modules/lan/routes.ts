import { type RouteDef, route } from "../../http/route";
import { TabletSetup } from "./model";
import type { LanService } from "./service";

export function lanRoutes(lan: LanService): RouteDef[] {
  return [
    route({
      method: "GET",
      path: "/lan/tablet-setup",
      tag: "system",
      summary: "What a tablet needs to trust the box: its names, HTTPS port and CA fingerprint (public: asked before any login)",
      access: { public: true },
      response: TabletSetup,
      handler: () => lan.tabletSetup(),
    }),
  ];
}
