// Pickup reminders (issue 35). The day before a pickup from the client, once quiet hours are
// over in the shop's zone, each stop's customer gets one SMS ending "Reply YES to confirm or
// SKIP". The sender's poll runs pass(); the unique (ticket, pickup day) key of `reminders` makes
// it once per stop whatever the number of passes, restarts or followers. A customer who left
// the last BACKOFF_AFTER reminders unanswered gets one only every other pickup (domain/replies).
// Reminders go by SMS only: the answer must come back where the box can read it.
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { outgoingMessages, reminders } from "../../../db/schema";
import { addDays, businessDay, shopTimeZone } from "../../domain/dates";
import { displayDate } from "../../domain/format";
import { quietUntil } from "../../domain/quietHours";
import { heldBack, REMINDER_ASK } from "../../domain/replies";
import type { Clock } from "../../platform/clock";
import type { AgentReads } from "../agents/reads";
import type { CustomerReads } from "../customers/reads";
import { ticketStopReads } from "../tickets/stopReads";
import { type Channels, cleanBody, dialable } from "./compose";
import { newRow } from "./outbox";
import type { QuietHoursStore } from "./quietHours";
import type { Announce } from "./sender";

/** Stops looked at per pass (a day's pickups of a box are far fewer). */
const MAX_STOPS = 2000;

export type ReminderOutcome = (typeof reminders.$inferSelect)["outcome"];

/** The reminder's words: the shop, the ticket, the day (DD/MM/YYYY) and the question. */
export const reminderText = (shop: string, ticketId: number, day: string) =>
  cleanBody(`${shop}: we collect ticket ${ticketId} tomorrow, ${displayDate(day)}. ${REMINDER_ASK}`);

export function createReminders({
  db,
  clock,
  customers,
  shops,
  quiet,
  channels,
  announce,
  kick,
}: {
  db: Db;
  clock: Clock;
  customers: CustomerReads;
  shops: AgentReads;
  quiet: QuietHoursStore;
  channels: () => Promise<Channels>;
  announce: Announce;
  kick: () => void;
}) {
  const stops = ticketStopReads(db);

  /** The customer's reminders before this pickup day, newest first (what the back-off looks at). */
  const earlier = (customerId: number, day: string) =>
    db
      .select({ outcome: reminders.outcome, answered_at: reminders.answered_at })
      .from(reminders)
      .where(and(eq(reminders.customer_id, customerId), lt(reminders.pickup_date, day)))
      .orderBy(desc(reminders.pickup_date), desc(reminders.id))
      .limit(10);

  async function pass(): Promise<Record<ReminderOutcome, number>> {
    const tally: Record<ReminderOutcome, number> = { sent: 0, skipped_backoff: 0, skipped_no_messages: 0, skipped_no_address: 0 };
    const now = clock.now();
    // During quiet hours nothing is decided: the first pass after them sends (still the day before).
    if (quietUntil(now, await quiet.get(), shopTimeZone())) return tally;
    const ch = await channels();
    if (!ch.sms) return tally;
    const day = addDays(businessDay(now), 1);
    const due = await stops.stops({ from: day, to: day, kinds: ["pickup"] }, MAX_STOPS);
    const at = now.toISOString();
    // One read of the day's decided stops: the poll runs every 2 s, and a day's stops are decided once.
    const decided = new Set(
      (await db.select({ ticket_id: reminders.ticket_id }).from(reminders).where(eq(reminders.pickup_date, day))).map((r) => r.ticket_id),
    );
    for (const t of due) {
      if (decided.has(t.id)) continue;
      const c = await customers.contact(t.customer_id);
      if (!c) continue;
      const mobile = dialable(c.mobile);
      const past = await earlier(c.id, day);
      const outcome: ReminderOutcome = c.no_messages
        ? "skipped_no_messages"
        : !mobile
          ? "skipped_no_address"
          : heldBack(past.map((r) => ({ outcome: r.outcome, answered: r.answered_at !== null })))
            ? "skipped_backoff"
            : "sent";
      const shop = (await shops.shop(t.agent_id))?.name ?? "Ironbox";
      const row = await db.transaction(async (tx) => {
        const [claimed] = await tx
          .insert(reminders)
          .values({ agent_id: t.agent_id, ticket_id: t.id, customer_id: c.id, pickup_date: day, outcome, sent_at: at })
          .onConflictDoNothing()
          .returning({ id: reminders.id });
        if (!claimed || outcome !== "sent" || !mobile) return claimed ? null : undefined;
        const [r] = await tx
          .insert(outgoingMessages)
          .values(
            newRow(
              {
                channel: "sms",
                recipient: mobile,
                agent_id: t.agent_id,
                employee_id: null,
                customer_id: c.id,
                ticket_id: t.id,
                batch_id: null,
                subject: "",
                text: reminderText(shop, t.id, day),
              },
              at,
            ),
          )
          .returning();
        await tx.update(reminders).set({ outgoing_message_id: r!.id }).where(eq(reminders.id, claimed.id));
        return r!;
      });
      // undefined: another pass decided this stop meanwhile.
      if (row === undefined) continue;
      tally[outcome]++;
      if (row) announce(row, "queued");
    }
    if (tally.sent) setTimeout(kick, 0);
    return tally;
  }

  let busy: Promise<Record<ReminderOutcome, number>> | null = null;
  return {
    /** One pass over tomorrow's pickups (the sender's poll runs it; tests step it with the clock). */
    remind(): Promise<Record<ReminderOutcome, number>> {
      busy ??= pass().finally(() => {
        busy = null;
      });
      return busy;
    },
  };
}
export type Reminders = ReturnType<typeof createReminders>;
