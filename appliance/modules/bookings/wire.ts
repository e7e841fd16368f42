// Issue 35: the bookings module put together for the composition root (boot.ts).
import type { Db } from "../../../db/client";
import type { Clock } from "../../platform/clock";
import { customerReads } from "../customers/reads";
import type { CustomerService } from "../customers/service";
import type { MessagingService } from "../messaging/service";
import type { PlaceService } from "../places/service";
import { ensureSigningKey, parsePublicKey } from "../reference/signing";
import type { SchedulingService } from "../scheduling/service";
import type { TicketService } from "../tickets/service";
import { type ApplyDeps, createBookingApply } from "./apply";
import { createDownlinkHq, createDownlinkShop } from "./downlink";
import { createBookingService } from "./service";
import { createTransferHq } from "./transfers";

export function createBookings(d: {
  db: Db;
  clock: Clock;
  site: string;
  mode: "shop" | "hq";
  dataDir: string;
  /** The reference data's enrolment with HQ (shop), or null. */
  enrolment: { url: string; publicKey: string; token: string } | null;
  services: { customers: CustomerService; places: PlaceService; tickets: TicketService; scheduling: SchedulingService; messaging: MessagingService };
  copies: () => { site?: string; url: string }[];
  log: (m: string, e?: unknown) => void;
  /** Other instruction kinds the shop applies from the same channel (apply.ts `kinds`). */
  kinds?: ApplyDeps["kinds"];
}) {
  const { db, clock, services: s } = d;
  const shop = d.mode === "shop" ? d.enrolment : null;
  const applyDeps: ApplyDeps = {
    db,
    clock,
    site: d.site,
    hqKey: shop ? parsePublicKey(shop.publicKey) : null,
    customers: s.customers,
    customerReads: customerReads(db),
    places: s.places,
    tickets: s.tickets,
    scheduling: s.scheduling,
    messaging: s.messaging,
    kinds: d.kinds,
  };
  const apply = createBookingApply(applyDeps);
  const hqCopies = () => d.copies().flatMap((c) => (c.site ? [{ site: c.site, url: c.url }] : []));
  // HQ's side of the deposit transfers (issue 34): phase "in" is issued as a site polls, once the source's copy shows phase "out".
  const transfersHq = d.mode === "hq" ? createTransferHq({ db, clock, key: () => ensureSigningKey(d.dataDir), copies: hqCopies }) : null;
  const downlinkHq =
    d.mode === "hq"
      ? createDownlinkHq({
          passes: transfersHq ? [transfersHq.advance] : [],
          db,
          clock,
          key: () => ensureSigningKey(d.dataDir),
          copies: () => d.copies().flatMap((c) => (c.site ? [{ site: c.site, url: c.url }] : [])),
          log: d.log,
        })
      : null;
  const downlinkShop = createDownlinkShop({ db, site: d.site, enrolment: shop, apply, log: d.log });
  const service = createBookingService({
    db,
    clock,
    customers: customerReads(db),
    tickets: s.tickets,
    scheduling: s.scheduling,
    messaging: s.messaging,
  });
  return {
    apply,
    /** The same apply with some dependencies replaced: tests stop it at a chosen point (a crash midway). */
    applyWith: (change: (real: ApplyDeps) => Partial<ApplyDeps>) => createBookingApply({ ...applyDeps, ...change(applyDeps) }),
    downlinkHq,
    downlinkShop,
    service,
    transfersHq,
  };
}
export type Bookings = ReturnType<typeof createBookings>;
