// Automatic status messages (issue 25). A template marked auto_send goes by itself when a
// ticket reaches its state. The box follows the tickets module's state log (its read
// function, never its table) from a cursor kept in box_settings, so no ticket code calls
// messaging and a change made while the sender was down is still seen after a restart. Each
// (ticket, state) is decided once, in the same transaction as the cursor moves: queued, or
// skipped for the customer's "no messages" consent (or no address, no channel) and recorded
// in auto_messages, whose unique key stops a second copy whatever happens to the cursor.
// Reached during quiet hours, the row is queued for the end of them: the sender only takes
// rows that are due.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { autoMessages, boxSettings, outgoingMessages } from "../../../db/schema";
import { renderStatusMessage } from "../../domain/messageTemplate";
import { quietUntil } from "../../domain/quietHours";
import { shopTimeZone } from "../../domain/dates";
import type { Clock } from "../../platform/clock";
import type { StateChange, TicketReads } from "../tickets/reads";
import { addressOf, type Channels, cleanBody } from "./compose";
import { newRow } from "./outbox";
import type { QuietHoursStore } from "./quietHours";
import type { Announce } from "./sender";
import { type TicketContexts, ticketSubject } from "./status";
import { NO_LINKS, type TicketLinks, withLink } from "./links";
import type { Templates } from "./templates";

const CURSOR_KEY = "messaging_auto_cursor";
/** State log rows read per pass. */
const PAGE = 200;

export type AutoOutcome = (typeof autoMessages.$inferSelect)["outcome"];

export function createAutoMessages({
  db,
  clock,
  tickets,
  contexts,
  templates,
  quiet,
  channels,
  announce,
  kick,
  links = NO_LINKS,
}: {
  db: Db;
  clock: Clock;
  tickets: TicketReads;
  contexts: TicketContexts;
  templates: Templates;
  quiet: QuietHoursStore;
  channels: () => Promise<Channels>;
  announce: Announce;
  kick: () => void;
  /** Issue 35: the ticket's status link, minted in the write that queues the message. */
  links?: TicketLinks;
}) {
  async function cursor(): Promise<number | null> {
    const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, CURSOR_KEY) });
    const n = row ? Number(row.value) : Number.NaN;
    return Number.isInteger(n) && n >= 0 ? n : null;
  }
  const setCursor = (q: Pick<Db, "insert">, after: number) =>
    q
      .insert(boxSettings)
      .values({ key: CURSOR_KEY, value: String(after) })
      .onConflictDoUpdate({ target: boxSettings.key, set: { value: String(after) } });

  /** Decides one state change; answers its outcome, or null when it is not one to message. */
  async function decide(change: StateChange, auto: Map<string, string>): Promise<{ outcome: AutoOutcome; row?: typeof outgoingMessages.$inferSelect } | null> {
    const template = auto.get(change.state);
    const ctx = template === undefined ? null : await contexts.of(change.ticket_id);
    // Not a state that sends by itself; the ticket is gone; or it has moved on meanwhile (or
    // only some of its items reached the state): nothing to say.
    if (template === undefined || !ctx || ctx.ticket.state !== change.state) {
      await setCursor(db, change.id);
      return null;
    }
    const ch = await channels();
    const to = addressOf(ctx.customer, ch);
    const rendered = renderStatusMessage(template, ctx.values);
    const outcome: AutoOutcome = ctx.customer.no_messages
      ? "skipped_no_messages"
      : !ch.sms && !ch.email
        ? "skipped_no_channel"
        : !to
          ? "skipped_no_address"
          : !rendered.ok
            ? "skipped_cannot_render"
            : "queued";
    const now = clock.now();
    const at = now.toISOString();
    const due = outcome === "queued" ? (quietUntil(now, await quiet.get(), shopTimeZone())?.toISOString() ?? at) : at;
    return db.transaction(async (tx) => {
      const [claimed] = await tx
        .insert(autoMessages)
        .values({ ticket_id: ctx.ticket.id, state: change.state, agent_id: ctx.ticket.agent_id, outcome, state_log_id: change.id, created_at: at })
        .onConflictDoNothing()
        .returning({ id: autoMessages.id });
      await setCursor(tx, change.id);
      // Decided before (the state reached again, or a cursor lost): never a second copy.
      if (!claimed) return null;
      if (outcome !== "queued" || !to || !rendered.ok) return { outcome };
      const link = await links.mint(tx, ctx.ticket);
      const [row] = await tx
        .insert(outgoingMessages)
        .values(
          newRow(
            {
              ...to,
              agent_id: ctx.ticket.agent_id,
              employee_id: null,
              customer_id: ctx.customer.id,
              ticket_id: ctx.ticket.id,
              batch_id: null,
              subject: ticketSubject(ctx),
              text: withLink(cleanBody(rendered.text), link),
            },
            at,
            due,
          ),
        )
        .returning();
      await tx.update(autoMessages).set({ outgoing_message_id: row!.id }).where(eq(autoMessages.id, claimed.id));
      return { outcome, row: row! };
    });
  }

  let busy: Promise<Record<AutoOutcome, number>> | null = null;

  /**
   * Reads the state log from the cursor to its end and decides each change. The first time
   * (no cursor yet) it starts at the log's end: tickets changed before the box knew about
   * automatic messages are not messaged. One pass at a time.
   */
  async function pass(): Promise<Record<AutoOutcome, number>> {
    const tally: Record<AutoOutcome, number> = { queued: 0, skipped_no_messages: 0, skipped_no_address: 0, skipped_no_channel: 0, skipped_cannot_render: 0 };
    let after = await cursor();
    if (after === null) {
      await setCursor(db, await tickets.lastStateChangeId());
      return tally;
    }
    let auto: Map<string, string> | null = null;
    for (;;) {
      const changes = await tickets.stateChangesAfter(after, PAGE);
      if (!changes.length) break;
      // Read once a pass, and only when something changed (the poll runs every few seconds).
      auto ??= await templates.autoSendTexts();
      if (!auto.size) {
        // Nothing sends by itself: the cursor moves on at once.
        await setCursor(db, changes.at(-1)!.id);
      } else {
        for (const c of changes) {
          const d = await decide(c, auto);
          if (!d) continue;
          tally[d.outcome]++;
          if (d.row) announce(d.row, "queued");
        }
      }
      after = changes.at(-1)!.id;
      if (changes.length < PAGE) break;
    }
    if (tally.queued) setTimeout(kick, 0);
    return tally;
  }

  return {
    /** One pass over the state changes since the last (the sender's poll runs it; tests step it). */
    follow(): Promise<Record<AutoOutcome, number>> {
      busy ??= pass().finally(() => {
        busy = null;
      });
      return busy;
    },
  };
}
export type AutoMessages = ReturnType<typeof createAutoMessages>;
