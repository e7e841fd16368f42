/**
 * Issue 35, the public face put together: status links (links.ts), what a link shows
 * (status.ts), one-time codes (otp.ts) and online pickups (bookings.ts). At HQ a token not
 * found in HQ's own database is looked for in each shop's restored copy (`siteCopies`), read
 * only; a shop's box answers from its own database on its LAN.
 */
import type { Db } from "../../../db/client";
import type { Clock } from "../../platform/clock";
import { boxAgentId } from "../agents/reads";
import { customerReads } from "../customers/reads";
import { localityNames } from "../places/reads";
import { servedLocalityIds } from "../scheduling/reads";
import type { MessagingService } from "../messaging/service";
import type { SchedulingService } from "../scheduling/service";
import { createBookings } from "./bookings";
import { type StatusLinks, TOKEN_PATTERN } from "./links";
import { withReadOnly } from "../../../db/readOnly";
import type { PublicStatus } from "./model";
import { createOtps, phoneSpellings } from "./otp";
import { publicStatus } from "./status";

/** The one answer to a token that opens nothing (unknown, malformed, revoked, expired). */
export const NO_SUCH_LINK = "This link is not valid (it may have expired): ask the shop for a new one";

/** A shop's restored copy at HQ (file:…), read on HQ's schema version. */
export type SiteCopy = { site?: string; url: string };

export function createPublicService({
  db,
  clock,
  links,
  scheduling,
  messaging,
  siteCopies = () => [],
  log = console.error,
}: {
  db: Db;
  clock: Clock;
  links: StatusLinks;
  scheduling: Pick<SchedulingService, "availability">;
  messaging: Pick<MessagingService, "queueCode">;
  siteCopies?: () => SiteCopy[];
  log?: (m: string, e?: unknown) => void;
}) {
  const customers = customerReads(db);
  const otps = createOtps({ db, clock, customers, boxAgent: () => boxAgentId(db), queueCode: messaging.queueCode, log });
  const bookings = createBookings({
    db,
    clock,
    scheduling,
    otps,
    // This box's customer's shop, when it has one with the mobile; otherwise null and HQ's
    // routing (bookings/downlink.ts siteFor) finds the site from the shops' copies or the locality.
    agentOfPhone: async (dial) => {
      const p = phoneSpellings(dial);
      return p ? ((await customers.byMobiles(p.spellings))[0]?.agent_id ?? null) : null;
    },
  });

  return {
    /** GET /status/{token}: the ticket's public status, or null for every kind of bad token alike. */
    async status(token: string): Promise<PublicStatus | null> {
      const own = await links.resolve(token);
      if (own) return publicStatus(db, own);
      // Only a well-formed token is looked for in the copies (a malformed one costs nothing).
      if (!TOKEN_PATTERN.test(token)) return null;
      for (const copy of siteCopies()) {
        const answer = await withReadOnly(copy.url, async (site) => {
          const found = await links.resolve(token, site);
          return found ? publicStatus(site, found) : null;
        }).catch((e) => {
          // Logged without the token; the next copy is tried.
          log(`public face: the copy of ${copy.site ?? "a site"} could not be read (${(e as Error)?.message ?? e})`);
          return null;
        });
        if (answer) return answer;
      }
      return null;
    },
    /** The localities the vans serve, by name: the booking page's choice. */
    async localities(): Promise<{ id: number; name: string }[]> {
      const served = await servedLocalityIds(db);
      return (await localityNames(db)).filter((l) => served.has(l.id)).sort((a, b) => a.name.localeCompare(b.name));
    },
    pickupDays: bookings.pickupDays,
    sendCode: otps.send,
    book: bookings.book,
    revoke: links.revoke,
    /** The box's clock (the booking page's form tokens age by it). */
    clock,
  };
}
export type PublicService = ReturnType<typeof createPublicService>;
