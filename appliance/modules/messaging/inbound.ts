// Texts that come back (issue 35): from the Android gateway's webhook (sms:received, signed
// with HMAC-SHA256 over the raw body followed by X-Timestamp) or read off the GSM modem. Each is
// recorded once (its source id is unique), matched by phone to the customer and to their latest
// open reminder, and acted on in the same transaction:
//   YES  -> the reminder answered yes: the stop is confirmed on the driver's run;
//   SKIP -> answered skip: the stop leaves the driver's run (the ticket is untouched), and the
//           shop is told through its inbox;
//   STOP -> the customer's "no messages" set (no more reminders, bulk sends skip them);
//   anything else, no open reminder, or an unknown number -> the inbox, for a person.
import { createHmac, createHash, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gte, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { inboundMessages, reminders } from "../../../db/schema";
import { businessDay } from "../../domain/dates";
import { displayDate } from "../../domain/format";
import { parseReply, phoneKey } from "../../domain/replies";
import type { Clock } from "../../platform/clock";
import { unauthorized, unprocessable } from "../../platform/errors";
import { stopMessages } from "../customers/consent";
import type { CustomerContact, CustomerReads } from "../customers/reads";
import { cleanBody } from "./compose";

/** How far X-Timestamp may be from the box's clock: a captured call cannot be replayed later. */
export const SIGNATURE_WINDOW_S = 300;
/** The longest text kept (a long SMS is at most a few parts). */
const TEXT_MAX = 2000;

/** The part of the gateway's webhook call Ironbox reads (docs.sms-gate.app, features/webhooks). */
const Webhook = z.object({
  /** The event's own id: the same on a redelivery (messageId is a content hash, not unique). */
  id: z.string().min(1).max(200),
  event: z.string().max(50),
  payload: z
    .object({
      message: z.string().max(10_000).optional(),
      phoneNumber: z.string().max(50).optional(),
      receivedAt: z.string().max(50).optional(),
    })
    .passthrough()
    .optional(),
});

/** A text as either source gives it. */
export interface Incoming {
  source: "gateway" | "modem";
  sourceId: string;
  phone: string;
  text: string;
  /** When the phone or modem got it (UTC ISO); the box's clock when unknown. */
  receivedAt?: string;
}

export type InboundAction = (typeof inboundMessages.$inferSelect)["action"];
export type Applied = { id: number; action: InboundAction; duplicate: boolean };

/** HMAC-SHA256 of body + timestamp, hex: what the gateway puts in X-Signature. */
export const signWebhook = (secret: string, body: string, timestamp: string) =>
  createHmac("sha256", secret)
    .update(body + timestamp)
    .digest("hex");

/** A modem text's id: the modem has no stable one (its index is reused after a delete). */
export const modemSourceId = (phone: string, sentAt: string, text: string) =>
  `modem:${createHash("sha256").update(`${phone}\n${sentAt}\n${text}`).digest("hex").slice(0, 32)}`;

export function createInbound({
  db,
  clock,
  customers,
  secret,
}: {
  db: Db;
  clock: Clock;
  customers: CustomerReads;
  /** IRONBOX_SMS_WEBHOOK_SECRET: the signing key typed into the gateway app's webhook settings (null: webhook off). */
  secret: string | null;
}) {
  /** Refuses a call not signed with the secret, or signed too long ago: 401, nothing written. */
  function verify(raw: string, headers: Headers) {
    if (!secret) throw unauthorized("Token: incoming texts are not set up on this box (IRONBOX_SMS_WEBHOOK_SECRET)");
    const ts = headers.get("x-timestamp") ?? "";
    const sig = (headers.get("x-signature") ?? "").trim().toLowerCase();
    if (!/^\d{1,12}$/.test(ts) || !/^[0-9a-f]{64}$/.test(sig)) throw unauthorized("Token: the call is not signed (X-Signature, X-Timestamp)");
    if (Math.abs(clock.now().getTime() / 1000 - Number(ts)) > SIGNATURE_WINDOW_S)
      throw unauthorized("Token: the signature's timestamp is too far from the box's clock");
    const want = Buffer.from(signWebhook(secret, raw, ts), "hex");
    if (!timingSafeEqual(want, Buffer.from(sig, "hex"))) throw unauthorized("Token: the signature does not match");
  }

  /** The customer's latest open reminder among these customers: sent, unanswered, for today or later. */
  async function openReminder(ids: number[]) {
    if (!ids.length) return undefined;
    const [r] = await db
      .select()
      .from(reminders)
      .where(
        and(
          inArray(reminders.customer_id, ids),
          eq(reminders.outcome, "sent"),
          isNull(reminders.answered_at),
          gte(reminders.pickup_date, businessDay(clock.now())),
        ),
      )
      .orderBy(desc(reminders.id))
      .limit(1);
    return r;
  }

  /** Records one text and does what it says; a source id seen before changes nothing. */
  async function apply(m: Incoming): Promise<Applied> {
    const [seen] = await db.select().from(inboundMessages).where(eq(inboundMessages.source_id, m.sourceId));
    if (seen) return { id: seen.id, action: seen.action, duplicate: true };
    const now = clock.now();
    const at = now.toISOString();
    const text = cleanBody(m.text).slice(0, TEXT_MAX);
    const word = parseReply(text);
    const found: CustomerContact[] = await customers.byPhone(phoneKey(m.phone));
    const reminder = await openReminder(found.map((c) => c.id));
    const customer = reminder ? found.find((c) => c.id === reminder.customer_id) : found.length === 1 ? found[0] : undefined;
    const agentId =
      reminder?.agent_id ?? customer?.agent_id ?? (found.length && found.every((c) => c.agent_id === found[0]!.agent_id) ? found[0]!.agent_id : null);

    let action: InboundAction = "inbox";
    let note = "";
    let handled = false;
    if (!found.length) note = "From a number no customer has";
    else if (word === "stop") {
      action = "stopped";
      note = "Asked for no more messages: set on the customer";
      handled = true;
    } else if (word && !reminder) note = `${word.toUpperCase()} with no pickup reminder waiting for an answer`;
    else if (word === "yes" && reminder) {
      action = "confirmed";
      handled = true;
    } else if (word === "skip" && reminder) {
      action = "skipped";
      // The shop is told: the entry stays in its inbox until someone has seen it.
      note = `Pickup of ticket ${reminder.ticket_id} on ${displayDate(reminder.pickup_date)} skipped by the customer: taken off the driver's run`;
    } else note = reminder ? `Not YES, SKIP or STOP (a reminder for ticket ${reminder.ticket_id} waits for an answer)` : "Not a reply to a reminder";

    return db.transaction(async (tx) => {
      const [row] = await tx
        .insert(inboundMessages)
        .values({
          source: m.source,
          source_id: m.sourceId,
          agent_id: agentId,
          customer_id: customer?.id ?? null,
          reminder_id: reminder?.id ?? null,
          phone: m.phone.slice(0, 50),
          text,
          received_at: m.receivedAt ?? at,
          action,
          note,
          handled_at: handled ? at : null,
        })
        .onConflictDoNothing()
        .returning({ id: inboundMessages.id });
      // Recorded by a concurrent delivery of the same text meanwhile.
      if (!row) {
        const [other] = await tx.select().from(inboundMessages).where(eq(inboundMessages.source_id, m.sourceId));
        return { id: other!.id, action: other!.action, duplicate: true };
      }
      if (reminder && (action === "confirmed" || action === "skipped" || action === "stopped")) {
        await tx
          .update(reminders)
          .set({ answered_at: at, answer: action === "confirmed" ? "yes" : action === "skipped" ? "skip" : "stop", inbound_message_id: row.id })
          .where(and(eq(reminders.id, reminder.id), isNull(reminders.answered_at)));
      }
      // STOP: every customer record with this phone (the person asked, not one record of theirs).
      if (action === "stopped")
        await stopMessages(
          tx,
          now,
          found.map((c) => c.id),
          { by: "SMS reply STOP", inbound_message_id: row.id },
        );
      return { id: row.id, action, duplicate: false };
    });
  }

  return {
    apply,
    /** POST /messaging/inbound: the gateway's webhook. Verified before anything is read or written. */
    async webhook(raw: string, headers: Headers): Promise<{ event: string; action: InboundAction | "ignored"; duplicate: boolean }> {
      verify(raw, headers);
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        throw unprocessable("The body is not JSON");
      }
      const parsed = Webhook.safeParse(json);
      if (!parsed.success)
        throw unprocessable(`Not a webhook call of the SMS gateway: ${parsed.error.issues.map((i) => i.path.join(".") || "body").join(", ")}`);
      const w = parsed.data;
      // sms:sent, sms:delivered, system:ping…: acknowledged, nothing to do.
      if (w.event !== "sms:received") return { event: w.event, action: "ignored", duplicate: false };
      const p = w.payload ?? {};
      if (!p.phoneNumber || p.message === undefined) throw unprocessable("payload: phoneNumber and message are needed");
      const when = p.receivedAt ? new Date(p.receivedAt) : null;
      const r = await apply({
        source: "gateway",
        sourceId: `gateway:${w.id}`,
        phone: p.phoneNumber,
        text: p.message,
        receivedAt: when && !Number.isNaN(when.getTime()) ? when.toISOString() : undefined,
      });
      return { event: w.event, action: r.action, duplicate: r.duplicate };
    },
  };
}
export type Inbound = ReturnType<typeof createInbound>;
