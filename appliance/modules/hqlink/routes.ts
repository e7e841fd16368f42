import { route } from "../../http/route";
import { LinkCheck, LinkSettingsBody, LinkState } from "./model";
import type { HqLinkService } from "./service";

/** The box's link is the box's: its admins set it up (HQ staff or the shop's admin). */
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
        "Sets the replica URL (sftp:// or s3://), the SSH key (write-only), the site name and the lag warning; values preset by the environment answer 409; restarts the link; audited",
      access: admin,
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
