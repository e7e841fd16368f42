// Issue 35: the channel from HQ down to one shop box. HQ wraps each online booking in a signed
// envelope addressed to the site that serves it (kept in `downlinks`, numbered) and serves a
// site its envelopes after a cursor; the shop polls with the reference data's enrolment (URL,
// token, HQ's key) and applies each once. HQ learns what a shop applied from the shop's own
// copy (shop_bookings reaches HQ by Litestream) and marks its booking applied: until then it
// serves the envelope again, which the shop takes as a replay.
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { withReadOnly } from "../../../db/readOnly";
import { boxSettings, downlinks, shopBookings } from "../../../db/schema";
import type { Clock } from "../../platform/clock";
import { customerReads } from "../customers/reads";
import { markBookingsApplied, receivedBookings } from "../public/bookings";
import { phoneSpellings } from "../public/otp";
import type { SigningKey } from "../reference/signing";
import { createSchedulingService } from "../scheduling/service";
import type { BookingApply } from "./apply";
import { BOOKING_KIND, type BookingPayload } from "./apply";
import { type Envelope, type SignedEnvelope, signEnvelope } from "./envelope";

/** A shop's restored copy at HQ. */
export type Copy = { site: string; url: string };

/** How often an enrolled shop asks HQ for envelopes: with HQ's copy a few seconds behind, a booking is applied within a minute. */
export const DOWNLINK_EVERY_MS = 30_000;
/** Envelopes per answer; the shop asks again at once when it got a full page. */
export const DOWNLINK_PAGE = 100;
const CURSOR_KEY = "bookings.downlink_cursor";

/**
 * Which site serves a booking (docs/decisions/bookings-down.md): the site whose copy has a
 * customer with the phone; else the one whose van schedule has room set for the locality on
 * the day; else the only site. Null: no site can be told (it waits, and is retried).
 */
export async function siteFor(copies: Copy[], clock: Clock, b: { phone: string; locality_id: number; day: string }): Promise<string | null> {
  const spellings = phoneSpellings(b.phone)?.spellings ?? [b.phone];
  const serving: string[] = [];
  for (const c of copies) {
    const found = await withReadOnly(c.url, async (site) => {
      if ((await customerReads(site).byMobiles(spellings)).length) return "customer" as const;
      const { days } = await createSchedulingService({ db: site, clock }).availability({ locality: b.locality_id, from: b.day, days: 1 });
      return (days[0]?.capacity ?? 0) > 0 ? ("area" as const) : null;
    }).catch(() => null);
    if (found === "customer") return c.site;
    if (found === "area") serving.push(c.site);
  }
  return serving[0] ?? (copies.length === 1 ? copies[0]!.site : null);
}

export function createDownlinkHq({
  db,
  clock,
  key,
  copies,
  log = console.error,
  passes = [],
}: {
  db: Db;
  clock: Clock;
  /** HQ's reference signing key (made on the first publish or here). */
  key: () => SigningKey;
  copies: () => Copy[];
  log?: (m: string, e?: unknown) => void;
  /** Other instructions' passes run before serving (the deposit transfers' phase "in", issue 34). */
  passes?: (() => Promise<unknown>)[];
}) {
  /** Bookings received since the last pass, signed and addressed; those no site can take yet wait. */
  async function route(): Promise<number> {
    const pending = await receivedBookings(db);
    if (!pending.length) return 0;
    const issued = new Set(
      (
        await db
          .select({ uid: downlinks.uid })
          .from(downlinks)
          .where(
            inArray(
              downlinks.uid,
              pending.map((p) => p.uid),
            ),
          )
      ).map((r) => r.uid),
    );
    let n = 0;
    for (const b of pending) {
      if (issued.has(b.uid)) continue;
      const site = await siteFor(copies(), clock, b);
      if (!site) continue;
      const payload: BookingPayload = { phone: b.phone, locality_id: b.locality_id, street: b.street, number: b.number, day: b.day, note: b.note };
      const envelope = signEnvelope(key(), { kind: BOOKING_KIND, uid: b.uid, site, payload, issued_at: clock.now().toISOString() });
      await db
        .insert(downlinks)
        .values({ uid: b.uid, kind: BOOKING_KIND, site, body: JSON.stringify(envelope), issued_at: envelope.issued_at })
        .onConflictDoNothing();
      n++;
    }
    return n;
  }

  /** The bookings the site's copy shows applied (or moved, or cancelled there) are marked applied at HQ. */
  async function learn(site: string): Promise<number> {
    const copy = copies().find((c) => c.site === site);
    if (!copy) return 0;
    const waiting = (await receivedBookings(db)).map((b) => b.uid);
    if (!waiting.length) return 0;
    const settled = await withReadOnly(copy.url, (s) =>
      s.select({ uid: shopBookings.uid, status: shopBookings.status }).from(shopBookings).where(inArray(shopBookings.uid, waiting)),
    ).catch((e) => {
      log(`bookings: the copy of ${site} could not be read (${(e as Error)?.message ?? e})`);
      return [];
    });
    const uids = settled.filter((r) => r.status !== "received").map((r) => r.uid);
    return markBookingsApplied(db, uids, clock.now().toISOString());
  }

  return {
    route,
    learn,
    /** GET /bookings/downlink: the site's envelopes after `after`, oldest first (HQ re-serves until the shop's copy shows them). */
    async serve(site: string, after: number): Promise<{ id: number; envelope: SignedEnvelope }[]> {
      await learn(site);
      await route();
      for (const pass of passes) await pass().catch((e) => log(`downlink: a pass failed (${(e as Error)?.message ?? e})`));
      const rows = await db
        .select()
        .from(downlinks)
        .where(and(eq(downlinks.site, site), gt(downlinks.id, after)))
        .orderBy(asc(downlinks.id))
        .limit(DOWNLINK_PAGE);
      return rows.map((r) => ({ id: r.id, envelope: JSON.parse(r.body) as SignedEnvelope }));
    },
  };
}
export type DownlinkHq = ReturnType<typeof createDownlinkHq>;

/** The shop's poll: asks HQ for its envelopes after its cursor and applies each once. */
export function createDownlinkShop({
  db,
  site,
  enrolment,
  apply,
  everyMs = DOWNLINK_EVERY_MS,
  log = console.error,
}: {
  db: Db;
  site: string;
  enrolment: { url: string; token: string } | null;
  apply: BookingApply;
  everyMs?: number;
  log?: (m: string, e?: unknown) => void;
}) {
  async function cursor(): Promise<number> {
    const r = await db.select().from(boxSettings).where(eq(boxSettings.key, CURSOR_KEY));
    return Number(r[0]?.value ?? 0);
  }
  const setCursor = (n: number) =>
    db
      .insert(boxSettings)
      .values({ key: CURSOR_KEY, value: String(n) })
      .onConflictDoUpdate({ target: boxSettings.key, set: { value: String(n) } });

  let running: Promise<number> | null = null;
  async function pollOnce(): Promise<number> {
    if (!enrolment) return 0;
    let applied = 0;
    for (;;) {
      const after = await cursor();
      const url = new URL("/api/v1/bookings/downlink", enrolment.url);
      url.searchParams.set("site", site);
      url.searchParams.set("after", String(after));
      const res = await fetch(url, { headers: { authorization: `Bearer ${enrolment.token}` }, redirect: "error", signal: AbortSignal.timeout(20_000) });
      if (res.status !== 200) throw new Error(`head quarters answered ${res.status} to the bookings downlink`);
      const rows = ((await res.json()) as { data: { id: number; envelope: unknown }[] }).data;
      for (const r of rows) {
        const out = await apply.receive(r.envelope);
        if (out.outcome === "refused") log(`bookings: envelope ${out.uid} refused: ${out.reason}`);
        else applied++;
        // A refused envelope never becomes valid: the cursor passes it too.
        await setCursor(r.id);
      }
      if (rows.length < DOWNLINK_PAGE) return applied;
    }
  }

  return {
    /** Polls now (one poll at a time). */
    poll(): Promise<number> {
      running ??= pollOnce().finally(() => (running = null));
      return running;
    },
    start(): () => void {
      if (!enrolment) return () => {};
      const kick = () => void this.poll().catch((e) => log(`bookings: downlink failed (${(e as Error)?.message ?? e})`));
      const timer = setInterval(kick, everyMs);
      const first = setTimeout(kick, 0);
      return () => (clearTimeout(first), clearInterval(timer));
    },
  };
}

/**
 * Any other kind of instruction for one site (issue 34: the deposit transfers), signed and kept
 * to be served with the bookings; at most once per uid (a second issue changes nothing).
 */
export async function issueEnvelope(db: Db, key: SigningKey, e: Envelope): Promise<void> {
  const signed = signEnvelope(key, e);
  await db
    .insert(downlinks)
    .values({ uid: e.uid, kind: e.kind, site: e.site, body: JSON.stringify(signed), issued_at: e.issued_at })
    .onConflictDoNothing();
}

/** The envelopes of a kind HQ issued, oldest first. */
export async function issuedEnvelopes(db: Db, kind: string): Promise<Envelope[]> {
  const rows = await db.select({ body: downlinks.body }).from(downlinks).where(eq(downlinks.kind, kind)).orderBy(asc(downlinks.id));
  return rows.map((r) => JSON.parse(r.body) as Envelope);
}
