// Issue 35: per-site credentials for what HQ sends one site only (the bookings downlink: other
// shops' customers' names, phones and addresses). The enrolment token (IRONBOX_HQ_TOKEN) is
// chain-wide: every shop holds it, so it cannot say which site is asking, and anything derived
// from it a shop could derive for any site. A site's token is therefore derived from HQ's box
// secret, which never leaves HQ's database: HMAC-SHA256(box secret, "downlink-site:" + site).
// Nothing is stored (HQ can show a site's token again at any time); a new box secret (a new
// HQ database) changes every site's token. The chain-wide token keeps the reference snapshot
// (the same for every shop) and is refused for a site's own data.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "../../../db/client";
import type { Clock } from "../../platform/clock";
import { conflict, forbidden, unauthorized } from "../../platform/errors";
import { audit } from "../audit/audit";
import type { Caller } from "../auth/caller";

/** A site's own token: "site." and 43 base64url characters (256 bits). */
export function siteToken(secret: string, site: string): string {
  return `site.${createHmac("sha256", secret).update(`downlink-site:${site}`).digest("base64url")}`;
}

export function createSiteTokens(deps: {
  db: Db;
  clock: Clock;
  /** HQ's box secret; null on a shop's box (it issues none). */
  secret: string | null;
  /** The chain-wide enrolment token (HQ), to tell a shop that presents it what to set instead. */
  peerToken: string | null;
  tokenGate: (client: string, right: () => boolean) => Promise<void>;
}) {
  // Digests of equal length: the comparison takes the same time whatever was sent, its length included.
  const digest = (t: string) => createHash("sha256").update(t).digest();
  const same = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));
  const hq = () => {
    if (!deps.secret || !deps.peerToken) throw conflict("This box does not serve shop boxes (it is not head quarters' box, or IRONBOX_HQ_TOKEN is unset)");
    return deps.secret;
  };

  return {
    /**
     * Throws unless `authorization` carries `site`'s own token. The chain-wide token gets 403
     * naming the setting (told apart inside the lock-out gate, so it is not counted as a wrong
     * guess and is no unlimited oracle); any other token counts like a wrong enrolment token.
     */
    async check(authorization: string | null, client: string, site: string): Promise<void> {
      const secret = hq();
      const m = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? "");
      if (!m) throw unauthorized("Token: the site's token is missing or wrong");
      const presented = m[1]!;
      // The chain token is told apart inside the gate, so telling it apart is no lock-out-free oracle for it.
      let chain = false;
      await deps.tokenGate(client, () => {
        chain = same(presented, deps.peerToken!);
        return same(presented, siteToken(secret, site)) || chain;
      });
      if (chain) throw forbidden(`This needs the site's own token: set IRONBOX_HQ_SITE_TOKEN on the shop's box (HQ shows it for site ${site})`);
    },

    /** POST /reference/siteToken: a site's token for its enrolment, audited (who was given which site's). */
    async issue(caller: Caller, site: string): Promise<{ site: string; token: string }> {
      const token = siteToken(hq(), site);
      await audit(deps.db, deps.clock.now(), caller, "site_token", "site", null, { site });
      return { site, token };
    },
  };
}
export type SiteTokens = ReturnType<typeof createSiteTokens>;
