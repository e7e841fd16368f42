// The sender (issue 14): works through the outbox after the request has answered. Exactly
// once: a row is claimed (queued -> sending) by one UPDATE that only a queued row matches, so
// two senders never take the same row; its `key` goes to the channel on every attempt (the
// Android gateway refuses a second copy of an id); a row found `sending` after a restart is
// asked about (lookup) where the channel can answer, and otherwise marked `unknown` for a
// person: never sent again blindly.
import { and, asc, eq, lte, notInArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { outgoingMessages } from "../../../db/schema";
import { type Channel, ChannelError, type OutgoingMessage } from "../../../drivers/messaging";
import type { Clock } from "../../platform/clock";
import type { Channels, Kind, Row } from "./compose";
import type { MessageStatus } from "./model";

/** How the sender retries: attempts in all, the first back-off (doubling each time) and its ceiling. */
export interface SenderPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long one send may take before it counts as a transient failure. */
  sendTimeoutMs: number;
  /** How often the sender looks for rows whose back-off is over, and asks about rows the gateway still holds. */
  pollMs: number;
}
export const DEFAULT_POLICY: SenderPolicy = { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * 60_000, sendTimeoutMs: 30_000, pollMs: 2_000 };

/** The back-off before attempt `attempts + 1`: base, 2×base, 4×base… up to the ceiling. */
export function backoffMs(attempts: number, p: Pick<SenderPolicy, "baseDelayMs" | "maxDelayMs">): number {
  return Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

/** Tells the tablets an outbox row changed state. */
export type Announce = (r: Pick<Row, "id" | "agent_id" | "batch_id" | "ticket_id" | "customer_id">, status: MessageStatus) => void;

export function createSender({
  db,
  clock,
  channels,
  announce,
  policy,
  log,
  onPoll,
  attachments,
}: {
  db: Db;
  clock: Clock;
  channels: () => Promise<Channels>;
  announce: Announce;
  policy: SenderPolicy;
  log: (m: string, e?: unknown) => void;
  /** Also run on each poll while the sender runs in the background (the automatic messages' follower). */
  onPoll?: () => Promise<unknown>;
  /** The files a row's `attachment` names (issue 34: an invoice's PDF), made when it is sent. */
  attachments?: (ref: string) => Promise<NonNullable<OutgoingMessage["attachments"]>>;
}) {
  const now = () => clock.now().toISOString();
  const inFlight = new Set<number>();
  const running: Record<Kind, boolean> = { sms: false, email: false };
  let stopped = false;
  /** Off while paused (tests step the sender with tick()) and after stop(). */
  let auto = true;
  let timer: ReturnType<typeof setInterval> | null = null;

  /** Claims the next due row of this channel: one UPDATE that only a still-queued row matches. */
  async function claim(kind: Kind): Promise<Row | undefined> {
    return db.transaction(async (tx) => {
      const at = now();
      const next = sql`(SELECT ${outgoingMessages.id} FROM ${outgoingMessages} WHERE ${outgoingMessages.status} = 'queued' AND ${outgoingMessages.next_attempt_at} <= ${at} AND ${outgoingMessages.channel} = ${kind} ORDER BY ${outgoingMessages.next_attempt_at}, ${outgoingMessages.id} LIMIT 1)`;
      const [row] = await tx
        .update(outgoingMessages)
        .set({ status: "sending", claimed_at: at, updated_at: at, attempts: sql`${outgoingMessages.attempts} + 1` })
        .where(and(eq(outgoingMessages.id, next), eq(outgoingMessages.status, "queued")))
        .returning();
      return row;
    });
  }

  /** Records the end of a row this sender holds (still `sending`: a retry from a screen cannot race it). */
  async function finish(r: Row, set: Partial<Row>) {
    await db
      .update(outgoingMessages)
      .set({ ...set, updated_at: now() })
      .where(and(eq(outgoingMessages.id, r.id), eq(outgoingMessages.status, "sending")));
    announce(r, set.status!);
  }

  async function failed(r: Row, e: unknown) {
    const message = e instanceof Error ? e.message : String(e);
    const permanent = e instanceof ChannelError && e.permanent;
    if (permanent || r.attempts >= policy.maxAttempts) {
      await finish(r, { status: "failed", last_error: permanent ? message : `${message} (gave up after ${r.attempts} attempts)` });
    } else {
      const at = new Date(clock.now().getTime() + backoffMs(r.attempts, policy)).toISOString();
      await finish(r, { status: "queued", next_attempt_at: at, last_error: message });
    }
  }

  /** Sends this channel's due rows one by one until none is left. */
  async function drain(kind: Kind) {
    while (!stopped) {
      const channel = (await channels())[kind];
      if (!channel) return;
      const r = await claim(kind);
      if (!r) return;
      inFlight.add(r.id);
      announce(r, "sending");
      try {
        const files = r.channel === "email" && r.attachment && attachments ? await attachments(r.attachment) : [];
        const res = await channel.send(
          {
            key: r.key,
            to: r.recipient,
            text: r.text,
            ...(r.channel === "email" ? { subject: r.subject } : {}),
            ...(files.length ? { attachments: files } : {}),
          },
          AbortSignal.timeout(policy.sendTimeoutMs),
        );
        await finish(r, { status: "sent", sent_at: now(), gateway_id: res.gatewayId ?? null, last_error: null });
      } catch (e) {
        await failed(r, e).catch((err) => log(`messaging: could not record the outcome of message ${r.id}`, err));
      } finally {
        inFlight.delete(r.id);
      }
    }
  }

  /** Starts draining each channel unless it is already being drained (the timer and every enqueue call this). */
  function kick() {
    if (stopped || !auto) return;
    for (const kind of ["sms", "email"] as const) {
      if (running[kind]) continue;
      running[kind] = true;
      drain(kind)
        .catch((e) => log(`messaging: the ${kind} sender stopped`, e))
        .finally(() => {
          running[kind] = false;
        });
    }
  }

  /**
   * Rows left `sending` by a sender that is gone (the box stopped mid-send), older than
   * `olderThanMs`: asked about where the channel can answer (sent -> sent; the gateway still
   * holds it -> asked again later; it failed there -> failed; it never got it -> queued
   * again), otherwise `unknown` for a person to decide.
   */
  async function recover(olderThanMs = 0) {
    const before = new Date(clock.now().getTime() - olderThanMs).toISOString();
    const rows = await db
      .select()
      .from(outgoingMessages)
      .where(
        and(
          eq(outgoingMessages.status, "sending"),
          lte(outgoingMessages.claimed_at, before),
          inFlight.size ? notInArray(outgoingMessages.id, [...inFlight]) : undefined,
        ),
      )
      .orderBy(asc(outgoingMessages.id))
      .limit(1000);
    const ch = await channels();
    const tally = { sent: 0, pending: 0, failed: 0, requeued: 0, unknown: 0 };
    for (const r of rows) {
      if (stopped) break;
      const channel = ch[r.channel];
      if (!channel?.lookup) {
        await finish(r, {
          status: "unknown",
          last_error: "The box stopped while sending this message: it may or may not have arrived. Send it again only if the customer did not get it.",
        });
        tally.unknown++;
        continue;
      }
      let answer: Awaited<ReturnType<NonNullable<Channel["lookup"]>>>;
      try {
        answer = await channel.lookup(r.key, AbortSignal.timeout(policy.sendTimeoutMs));
      } catch (e) {
        // The gateway cannot be asked now: the row stays `sending` and is asked about again later.
        log(`messaging: cannot ask about message ${r.id} yet: ${e instanceof Error ? e.message : String(e)}`);
        tally.pending++;
        continue;
      }
      if (answer === "sent") {
        await finish(r, { status: "sent", sent_at: now(), last_error: null });
        tally.sent++;
      } else if (answer === "failed") {
        await finish(r, { status: "failed", last_error: "The phone could not send this message" });
        tally.failed++;
      } else if (answer === "unknown") {
        // The gateway never got it: sending it now is its first copy.
        await finish(r, { status: "queued", next_attempt_at: now(), last_error: null });
        tally.requeued++;
      } else {
        await db
          .update(outgoingMessages)
          .set({ claimed_at: now(), updated_at: now() })
          .where(and(eq(outgoingMessages.id, r.id), eq(outgoingMessages.status, "sending")));
        tally.pending++;
      }
    }
    return tally;
  }

  /** No sending in the background (the rows stay as they are); tests step the sender with tick(). */
  function pause() {
    auto = false;
    if (timer) clearInterval(timer);
    timer = null;
  }

  return {
    kick,
    pause,
    /** After boot: rows a stopped sender left are settled first, then sending starts and goes on until stop(). */
    async start() {
      stopped = false;
      auto = true;
      const t = await recover(0);
      if (t.sent + t.failed + t.requeued + t.unknown + t.pending) log(`messaging: after a restart ${JSON.stringify(t)}`);
      // Paused or stopped while the recovery ran: nothing runs in the background.
      if (!auto) return;
      await onPoll?.().catch((e) => log("messaging: automatic messages failed", e));
      kick();
      timer = setInterval(() => {
        // State changes first, so a message they queue goes out on this same pass when due.
        const follow = onPoll ? onPoll().catch((e) => log("messaging: automatic messages failed", e)) : Promise.resolve();
        void follow.then(() => {
          kick();
          // Rows the gateway still held: asked about again once a poll interval has passed.
          if (auto) recover(policy.pollMs).catch((e) => log("messaging: recovery failed", e));
        });
      }, policy.pollMs);
      timer.unref?.();
    },
    stop() {
      stopped = true;
      pause();
    },
    /** One pass over every channel's due rows (tests call it to step the sender; concurrent calls are safe). */
    async tick() {
      await Promise.all([drain("sms"), drain("email")]);
    },
    recover,
    /** Waits until no send of this process is under way (tests; stop()). */
    get idle() {
      return inFlight.size === 0 && !running.sms && !running.email;
    },
  };
}
export type Sender = ReturnType<typeof createSender>;
