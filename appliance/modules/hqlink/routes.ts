import { HQ_STAFF, route } from "../../http/route";
import { LinkCheck, LinkSettingsBody, LinkState } from "./model";
import type { HqLinkService } from "./service";

/** The box's admins see the link and try it (HQ staff or the shop's admin). */
const admin = { roles: ["admin"] } as const;

export function hqLinkRoutes(link: HqLinkService) {
  return [
    route({
      method: "GET",
      path: "/hqlink",
      tag: "hqlink",
      summary: "The link to HQ: whether Litestream runs, the last position shipped, the lag, the last error in plain words, the settings (never the key)",
      access: admin,
      response: LinkState,
      handler: () => link.state(),
    }),
    route({
      method: "PUT",
      path: "/hqlink",
      tag: "hqlink",
      summary:
        "Sets the replica URL (sftp:// or s3://), the SSH key (write-only), the site name and the lag warning (HQ staff); values preset by the environment answer 409; restarts the link; audited",
      // HQ staff only: the URL says where the whole database goes (every shop's customers on the
      // box, and the box secret that signs its tokens), so a shop's admin on a shared box must
      // not be able to point it at a server of their own.
      access: HQ_STAFF,
      body: LinkSettingsBody,
      response: LinkState,
      handler: ({ caller, body }) => link.save(caller, body),
    }),
    route({
      method: "POST",
      path: "/hqlink/check",
      tag: "hqlink",
      summary: "Tries HQ's storage now with the current settings (connects, logs in, lists this box's snapshots)",
      access: admin,
      response: LinkCheck,
      handler: () => link.check(),
    }),
  ];
}
