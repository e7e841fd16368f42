import { and, asc, count, desc, eq, inArray, isNull, lte, notInArray, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { agents, boxSettings, customers, messageBatches, messageTemplates, outgoingMessages, tickets, ticketStates } from "../../../db/schema";
import type { DeviceAccess } from "../../../drivers/devices";
import {
  type Channel,
  ChannelError,
  type ChannelSettings,
  ChannelSettingsError,
  checkChannelSettings,
  isEmailAddress,
  maskUrl,
  NO_CHANNELS,
} from "../../../drivers/messaging";
import { euro, displayDate } from "../../domain/format";
import {
  defaultTemplate,
  NO_DELIVERY_DATE,
  PLACEHOLDERS,
  type PlaceholderKey,
  renderStatusMessage,
  stateSaying,
  type TemplateValues,
  unknownPlaceholders,
} from "../../domain/messageTemplate";
import { smsParts } from "../../domain/sms";
import type { Clock } from "../../platform/clock";
import { conflict, notFound, tooMany, unprocessable } from "../../platform/errors";
import type { BoxEventBus as EventBus } from "../events/model";
import { audit } from "../audit/audit";
import { agentScope, assertSameAgent, type EmployeeCaller } from "../auth/caller";
import type {
  BatchCounts,
  MessageListQuery,
  MessageStatus,
  MessagingSettings,
  OutboxRow,
  Preview,
  SendResult,
  SettingsValues,
  TestChannel,
  TestResult,
} from "./model";
import { seconds, slidingWindow, STATUS_REPEAT_MS, TESTS_PER_MINUTE } from "./throttle";

type Row = typeof outgoingMessages.$inferSelect;
type Kind = Row["channel"];
export type Channels = { sms: Channel | null; email: Channel | null };
/** Builds the channels of these settings (drivers/messaging createChannels; checked settings only). */
export type ChannelFactory = (s: ChannelSettings) => Channels;

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

/** Outbox rows a bulk send writes per statement. */
const INSERT_CHUNK = 2500;
const SETTINGS_KEY = "messaging";
/** What the settings screen shows in place of a stored password; sent back, it keeps that password. */
const MASK = "***";

const FIELDS = { sms_gateway_url: "smsGatewayUrl", modem_path: "modemPath", smtp_url: "smtpUrl", smtp_from: "smtpFrom" } as const satisfies Record<
  keyof SettingsValues,
  keyof ChannelSettings
>;

/** The back-off before attempt `attempts + 1`: base, 2×base, 4×base… up to the ceiling. */
export function backoffMs(attempts: number, p: Pick<SenderPolicy, "baseDelayMs" | "maxDelayMs">): number {
  return Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

/** Why a status message lacks a value its template uses, and what to do (the 422's words). */
const LACKS: Record<PlaceholderKey, string> = {
  customer_name: "the customer has no name (add it on the customer screen)",
  ticket_id: "the ticket has no number",
  state: "the ticket's state has no name",
  amount_due: "the amount due is unknown",
  shop_name: "the shop has no name (HQ sets it on the shop's details)",
  shop_phone: "the shop has no phone number (add one on the shop's details)",
  delivery_date: "the ticket has no delivery date",
};

/** Text for an SMS or an e-mail body: no control characters but line breaks. */
const cleanBody = (s: string) => s.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "");
/** One line for an e-mail header: no line breaks, so nothing can be added to the header. */
const headerLine = (s: string) =>
  s
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .trim()
    .slice(0, 150);
/** A mobile the phone can dial: digits with an optional leading +, spaces dropped. */
function dialable(mobile: string): string | null {
  const m = mobile.replace(/\s+/g, "");
  return /^\+?\d{6,15}$/.test(m) ? m : null;
}

type Recipient = { channel: Kind; recipient: string };
/** SMS when the customer has a mobile and SMS is set up, otherwise e-mail when both are there. */
function addressOf(c: { mobile: string; email_address: string }, ch: Channels): Recipient | null {
  const mobile = dialable(c.mobile);
  if (ch.sms && mobile) return { channel: "sms", recipient: mobile };
  const email = c.email_address.trim();
  if (ch.email && isEmailAddress(email)) return { channel: "email", recipient: email };
  return null;
}

const outRow = (r: Row): OutboxRow => {
  const { key: _key, claimed_at: _claimed, gateway_id: _gateway, ...rest } = r;
  return rest;
};

/**
 * The outbox (issue 14). Requests only write rows, in their own transaction; the sender works
 * through them after the request has answered. Exactly once: a row is claimed (queued ->
 * sending) by one UPDATE that only a queued row matches, so two senders never take the same
 * row; its `key` goes to the channel on every attempt (the Android gateway refuses a second
 * copy of an id); a row found `sending` after a restart is asked about (lookup) where the
 * channel can answer, and otherwise marked `unknown` for a person: never sent again blindly.
 */
export function createMessagingService({
  db,
  clock,
  bus,
  devices,
  presets,
  makeChannels,
  policy = DEFAULT_POLICY,
  log = console.error,
}: {
  db: Db;
  clock: Clock;
  bus: EventBus;
  devices: DeviceAccess;
  /** Settings the box's environment presets (config.messaging): these win and are read-only. */
  presets: ChannelSettings;
  makeChannels: ChannelFactory;
  policy?: SenderPolicy;
  log?: (m: string, e?: unknown) => void;
}) {
  const now = () => clock.now().toISOString();
  const announce = (r: Pick<Row, "id" | "agent_id" | "batch_id" | "ticket_id" | "customer_id">, status: MessageStatus) =>
    bus.publish({
      type: "message",
      agent_id: r.agent_id,
      id: r.id,
      batch_id: r.batch_id,
      ticket_id: r.ticket_id,
      customer_id: r.customer_id,
      status,
      at: now(),
    });

  // ---- settings and channels ----

  async function stored(): Promise<ChannelSettings> {
    const row = await db.query.boxSettings.findFirst({ where: eq(boxSettings.key, SETTINGS_KEY) });
    if (!row) return NO_CHANNELS;
    try {
      return { ...NO_CHANNELS, ...(JSON.parse(row.value) as Partial<ChannelSettings>) };
    } catch {
      return NO_CHANNELS;
    }
  }
  const isPreset = (f: keyof ChannelSettings) => !!presets[f];
  async function effective(): Promise<ChannelSettings> {
    const s = await stored();
    const out = { ...NO_CHANNELS };
    for (const f of Object.values(FIELDS)) out[f] = presets[f] || s[f];
    return out;
  }
  let current: Channels | null = null;
  /** The channels now in use, built once from the settings (again after a save). */
  async function channels(): Promise<Channels> {
    if (current) return current;
    try {
      current = makeChannels(await effective());
    } catch (e) {
      // A stored setting that no longer holds (a modem path gone from the device root): no channel, said in the log.
      log(`messaging: the channel settings cannot be used: ${e instanceof Error ? e.message : String(e)}`);
      current = { sms: null, email: null };
    }
    return current;
  }
  async function dropChannels() {
    const old = current;
    current = null;
    for (const ch of [old?.sms, old?.email]) await ch?.close?.().catch(() => {});
  }

  // ---- rows ----

  type NewRow = { agent_id: number; customer_id: number | null; ticket_id: number | null; batch_id: number | null; subject: string; text: string } & Recipient;
  function values(caller: EmployeeCaller, r: NewRow, at: string) {
    return {
      ...r,
      key: crypto.randomUUID(),
      employee_id: caller.employee.id,
      status: "queued" as const,
      attempts: 0,
      next_attempt_at: at,
      created_at: at,
      updated_at: at,
    };
  }

  async function load(caller: EmployeeCaller, id: number) {
    const r = await db.query.outgoingMessages.findFirst({ where: eq(outgoingMessages.id, id) });
    if (!r) throw notFound("Message");
    assertSameAgent(caller, r.agent_id, "Message");
    return r;
  }

  async function batchOf(caller: EmployeeCaller, id: number) {
    const b = await db.query.messageBatches.findFirst({ where: eq(messageBatches.id, id) });
    if (!b) throw notFound("Message batch");
    assertSameAgent(caller, b.agent_id, "Message batch");
    return b;
  }

  /** The ticket, its customer and its shop, or 404 when the caller may not see the ticket. */
  async function ticketContext(caller: EmployeeCaller, ticketId: number) {
    const t = await db.query.tickets.findFirst({ where: eq(tickets.id, ticketId) });
    if (!t) throw notFound("Ticket");
    assertSameAgent(caller, t.agent_id, "Ticket");
    const customer = await db.query.customers.findFirst({ where: eq(customers.id, t.customer_id) });
    const shop = await db.query.agents.findFirst({ where: eq(agents.id, t.agent_id) });
    if (!customer || !shop) throw notFound("Ticket");
    const state = await db.query.ticketStates.findFirst({ where: eq(ticketStates.name, t.state) });
    const templateValues: TemplateValues = {
      customer_name: customer.full_name,
      ticket_id: String(t.id),
      // As people say it ("picked up"), never the state's code; "" for the nameless state.
      state: stateSaying(t.state, state?.is_locality_delivery),
      amount_due: euro(Math.max(0, t.total - t.total_paid)),
      shop_name: shop.name,
      shop_phone: shop.landline || shop.mobile,
      delivery_date: t.delivery_date ? displayDate(t.delivery_date) : NO_DELIVERY_DATE,
    };
    return { ticket: t, customer, shop, state, values: templateValues };
  }

  async function templateFor(stateId: number | undefined, stateName: string): Promise<string> {
    if (stateId) {
      const t = await db.query.messageTemplates.findFirst({ where: eq(messageTemplates.state_id, stateId) });
      if (t) return t.text;
    }
    return defaultTemplate(stateName);
  }

  function refuseUnknownPlaceholders(text: string) {
    const bad = unknownPlaceholders(text);
    if (bad.length)
      throw unprocessable(`text: unknown placeholder ${bad.map((b) => `{${b}}`).join(", ")}; use ${PLACEHOLDERS.map((p) => `{${p.key}}`).join(", ")}`);
  }

  /** The status message as sent, never with a hole ("is now ."): the neutral text instead, or refused naming what even that lacks. */
  function statusText(template: string, values: TemplateValues): string {
    const r = renderStatusMessage(template, values);
    if (!r.ok) throw unprocessable(`The message cannot be sent as written: ${r.missing.map((k) => LACKS[k]).join("; ")}`);
    return cleanBody(r.text);
  }

  const testSends = slidingWindow(TESTS_PER_MINUTE, 60_000);

  /** 429 when this ticket's last status message was queued less than STATUS_REPEAT_MS ago (run inside the write). */
  async function refuseRepeat(q: Pick<Db, "select">, ticketId: number) {
    const [last] = await q
      .select({ created_at: outgoingMessages.created_at })
      .from(outgoingMessages)
      .where(and(eq(outgoingMessages.ticket_id, ticketId), isNull(outgoingMessages.batch_id)))
      .orderBy(desc(outgoingMessages.id))
      .limit(1);
    if (!last) return;
    const ago = clock.now().getTime() - Date.parse(last.created_at);
    if (ago >= 0 && ago < STATUS_REPEAT_MS)
      throw tooMany(
        `A status message for ticket ${ticketId} was queued ${seconds(ago)} s ago: wait ${seconds(STATUS_REPEAT_MS - ago)} s before sending another`,
      );
  }

  const noChannel = () => unprocessable("No way to send messages is set up: an admin sets up SMS or e-mail on Messaging settings");

  // ---- the sender ----

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
        const res = await channel.send(
          { key: r.key, to: r.recipient, text: r.text, ...(r.channel === "email" ? { subject: r.subject } : {}) },
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

  const sender = {
    /** After boot: rows a stopped sender left are settled first, then sending starts and goes on until stop(). */
    async start() {
      stopped = false;
      auto = true;
      const t = await recover(0);
      if (t.sent + t.failed + t.requeued + t.unknown + t.pending) log(`messaging: after a restart ${JSON.stringify(t)}`);
      // Paused or stopped while the recovery ran: nothing runs in the background.
      if (!auto) return;
      kick();
      timer = setInterval(() => {
        kick();
        // Rows the gateway still held: asked about again once a poll interval has passed.
        if (auto) recover(policy.pollMs).catch((e) => log("messaging: recovery failed", e));
      }, policy.pollMs);
      timer.unref?.();
    },
    stop() {
      stopped = true;
      this.pause();
      void dropChannels();
    },
    /** No sending in the background (the rows stay as they are); tests step the sender with tick(). */
    pause() {
      auto = false;
      if (timer) clearInterval(timer);
      timer = null;
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

  return {
    sender,
    channels,

    /** POST /messages/{id}/status: the ticket's status message to its customer, from the template of the ticket's state. */
    async statusMessage(caller: EmployeeCaller, ticketId: number): Promise<OutboxRow[]> {
      const ctx = await ticketContext(caller, ticketId);
      const ch = await channels();
      if (!ch.sms && !ch.email) throw noChannel();
      const to = addressOf(ctx.customer, ch);
      if (!to) throw unprocessable(`${ctx.customer.full_name} has no mobile or e-mail address a message can go to`);
      const text = statusText(await templateFor(ctx.state?.id, ctx.ticket.state), ctx.values);
      const at = now();
      const row = await db.transaction(async (tx) => {
        // Checked in the write, so two taps at once cannot both pass.
        await refuseRepeat(tx, ctx.ticket.id);
        const [r] = await tx
          .insert(outgoingMessages)
          .values(
            values(
              caller,
              {
                ...to,
                agent_id: ctx.ticket.agent_id,
                customer_id: ctx.customer.id,
                ticket_id: ctx.ticket.id,
                batch_id: null,
                subject: headerLine(`${ctx.shop.name}: ticket ${ctx.ticket.id}`),
                text,
              },
              at,
            ),
          )
          .returning();
        await audit(tx, clock.now(), caller, "message", "ticket", ctx.ticket.id, { outbox: r!.id, channel: r!.channel });
        return r!;
      });
      announce(row, "queued");
      setTimeout(kick, 0);
      return [outRow(row)];
    },

    /**
     * POST /customers/sendMessages: one row per customer reached, written with the batch in one
     * transaction (in chunks, letting reads through); customers who asked for no messages and
     * those without an address are counted, not queued. Chosen ids are each checked against
     * the caller's shop: one unknown id and nothing is queued.
     */
    async sendBulk(caller: EmployeeCaller, all: boolean, ids: number[], rawText: string): Promise<SendResult> {
      const text = cleanBody(rawText).trim();
      if (!text) throw unprocessable("text: write the message");
      const scope = agentScope(caller);
      const cols = {
        id: customers.id,
        agent_id: customers.agent_id,
        mobile: customers.mobile,
        email_address: customers.email_address,
        no_messages: customers.no_messages,
      };
      let list: { id: number; agent_id: number; mobile: string; email_address: string; no_messages: boolean }[];
      if (all) {
        list = await db
          .select(cols)
          .from(customers)
          .where(scope ? inArray(customers.agent_id, scope) : undefined)
          .orderBy(asc(customers.id));
      } else {
        const unique = [...new Set(ids)];
        if (!unique.length) throw unprocessable("customer_ids: choose at least one customer, or All Customers");
        list = await db
          .select(cols)
          .from(customers)
          .where(and(inArray(customers.id, unique), scope ? inArray(customers.agent_id, scope) : undefined));
        if (list.length !== unique.length) {
          const found = new Set(list.map((c) => c.id));
          const missing = unique.filter((id) => !found.has(id));
          throw unprocessable(`customer_ids: no customer ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ` and ${missing.length - 10} more` : ""}`);
        }
      }
      const ch = await channels();
      if (!ch.sms && !ch.email) throw noChannel();
      const skipped = { no_messages: 0, no_address: 0 };
      const reached: (Recipient & { customer_id: number; agent_id: number })[] = [];
      for (const c of list) {
        if (c.no_messages) skipped.no_messages++;
        else {
          const to = addressOf(c, ch);
          if (to) reached.push({ ...to, customer_id: c.id, agent_id: c.agent_id });
          else skipped.no_address++;
        }
      }
      const subject = headerLine(`Message from ${caller.agent.name}`);
      const at = now();
      const batchId = await db.transaction(async (tx) => {
        const [batch] = await tx
          .insert(messageBatches)
          .values({
            agent_id: caller.agent.id,
            employee_id: caller.employee.id,
            text,
            all_customers: all,
            queued: reached.length,
            skipped_no_messages: skipped.no_messages,
            skipped_no_address: skipped.no_address,
            created_at: at,
          })
          .returning({ id: messageBatches.id });
        // The rows differ only in key, shop, customer and address: each chunk is one statement
        // reading them from one JSON value, so 10,000 rows hold the write lock for a blink
        // (bound values per row would take most of a second). Reads go on between chunks.
        for (let i = 0; i < reached.length; i += INSERT_CHUNK) {
          if (i) await new Promise((r) => setImmediate(r));
          const chunk = JSON.stringify(reached.slice(i, i + INSERT_CHUNK).map((r) => [crypto.randomUUID(), r.agent_id, r.customer_id, r.channel, r.recipient]));
          await tx.run(sql`INSERT INTO ${outgoingMessages} (key, batch_id, agent_id, employee_id, customer_id, channel, recipient, subject, text, status, attempts, next_attempt_at, created_at, updated_at)
            SELECT value ->> 0, ${batch!.id}, value ->> 1, ${caller.employee.id}, value ->> 2, value ->> 3, value ->> 4, ${subject}, ${text}, 'queued', 0, ${at}, ${at}, ${at}
            FROM json_each(${chunk})`);
        }
        await audit(tx, clock.now(), caller, "send", "message_batch", batch!.id, { all, customers: list.length, queued: reached.length, skipped });
        return batch!.id;
      });
      setTimeout(kick, 0);
      return { batch_id: batchId, queued: reached.length, skipped };
    },

    /** GET /messages: newest first, the caller's shop's rows; each id filter must be one the caller may see. */
    async list(caller: EmployeeCaller, q: MessageListQuery): Promise<OutboxRow[]> {
      if (q.customer_id) {
        const c = await db.query.customers.findFirst({ columns: { agent_id: true }, where: eq(customers.id, q.customer_id) });
        if (!c) throw notFound("Customer");
        assertSameAgent(caller, c.agent_id, "Customer");
      }
      if (q.ticket_id) {
        const t = await db.query.tickets.findFirst({ columns: { agent_id: true }, where: eq(tickets.id, q.ticket_id) });
        if (!t) throw notFound("Ticket");
        assertSameAgent(caller, t.agent_id, "Ticket");
      }
      if (q.batch_id) await batchOf(caller, q.batch_id);
      const scope = agentScope(caller);
      const rows = await db
        .select()
        .from(outgoingMessages)
        .where(
          and(
            scope ? inArray(outgoingMessages.agent_id, scope) : undefined,
            q.customer_id ? eq(outgoingMessages.customer_id, q.customer_id) : undefined,
            q.ticket_id ? eq(outgoingMessages.ticket_id, q.ticket_id) : undefined,
            q.batch_id ? eq(outgoingMessages.batch_id, q.batch_id) : undefined,
          ),
        )
        .orderBy(desc(outgoingMessages.id))
        .limit(q.limit);
      return rows.map(outRow);
    },

    /** GET /messages/batches/{id}: the batch's rows counted per state. */
    async batchCounts(caller: EmployeeCaller, id: number): Promise<BatchCounts> {
      await batchOf(caller, id);
      const rows = await db
        .select({ status: outgoingMessages.status, n: count() })
        .from(outgoingMessages)
        .where(eq(outgoingMessages.batch_id, id))
        .groupBy(outgoingMessages.status);
      const out: BatchCounts = { queued: 0, sending: 0, sent: 0, failed: 0, unknown: 0, total: 0 };
      for (const r of rows) {
        out[r.status] = r.n;
        out.total += r.n;
      }
      return out;
    },

    /** POST /messages/outbox/{id}/retry: a failed or unknown row goes back to the queue (a person decided). */
    async retry(caller: EmployeeCaller, id: number): Promise<OutboxRow> {
      const r = await load(caller, id);
      if (r.status !== "failed" && r.status !== "unknown") throw conflict("Only a failed message, or one whose fate is unknown, can be sent again");
      const at = now();
      const row = await db.transaction(async (tx) => {
        const [u] = await tx
          .update(outgoingMessages)
          .set({ status: "queued", attempts: 0, next_attempt_at: at, updated_at: at })
          .where(and(eq(outgoingMessages.id, id), eq(outgoingMessages.status, r.status)))
          .returning();
        if (!u) throw conflict("The message changed meanwhile; look again");
        await audit(tx, clock.now(), caller, "retry", "outgoing_message", id, { from: r.status, last_error: r.last_error });
        return u;
      });
      announce(row, "queued");
      setTimeout(kick, 0);
      return outRow(row);
    },

    // ---- templates ----

    /** Every ticket state with its status message (the default text until an admin saves one). */
    async templates() {
      const rows = await db
        .select({
          state_id: ticketStates.id,
          state: ticketStates.name,
          text: messageTemplates.text,
          updated_at: messageTemplates.updated_at,
          updated_by: messageTemplates.updated_by,
        })
        .from(ticketStates)
        .leftJoin(messageTemplates, eq(messageTemplates.state_id, ticketStates.id))
        .orderBy(asc(ticketStates.position), asc(ticketStates.id));
      return rows.map((r) => ({
        state_id: r.state_id,
        state: r.state,
        text: r.text ?? defaultTemplate(r.state),
        is_default: r.text === null,
        updated_at: r.updated_at,
        updated_by: r.updated_by,
      }));
    },

    async saveTemplate(caller: EmployeeCaller, stateId: number, text: string) {
      const state = await db.query.ticketStates.findFirst({ where: eq(ticketStates.id, stateId) });
      if (!state) throw notFound("Ticket state");
      refuseUnknownPlaceholders(text);
      const at = now();
      const set = { text, updated_at: at, updated_by: caller.employee.id };
      await db.transaction(async (tx) => {
        await tx
          .insert(messageTemplates)
          .values({ state_id: stateId, ...set })
          .onConflictDoUpdate({ target: messageTemplates.state_id, set });
        await audit(tx, clock.now(), caller, "update", "message_template", stateId, { state: state.name });
      });
      return { state_id: stateId, state: state.name, text, is_default: false, updated_at: at, updated_by: caller.employee.id };
    },

    /** The template rendered for a real ticket, and its cost as an SMS. */
    async preview(caller: EmployeeCaller, text: string, ticketId: number): Promise<Preview> {
      refuseUnknownPlaceholders(text);
      const ctx = await ticketContext(caller, ticketId);
      const rendered = statusText(text, ctx.values);
      const { encoding, parts, length } = smsParts(rendered);
      return { text: rendered, sms: { encoding, parts, length } };
    },

    // ---- settings ----

    async settings(): Promise<MessagingSettings> {
      const eff = await effective();
      const ch = await channels();
      const show = (f: keyof ChannelSettings) => (f === "smsGatewayUrl" || f === "smtpUrl" ? maskUrl(eff[f]) : eff[f]) ?? "";
      return {
        values: { sms_gateway_url: show("smsGatewayUrl"), modem_path: show("modemPath"), smtp_url: show("smtpUrl"), smtp_from: show("smtpFrom") },
        presets: {
          sms_gateway_url: isPreset("smsGatewayUrl"),
          modem_path: isPreset("modemPath"),
          smtp_url: isPreset("smtpUrl"),
          smtp_from: isPreset("smtpFrom"),
        },
        channels: { sms: ch.sms?.label ?? null, email: ch.email?.label ?? null },
      };
    },

    /**
     * Saves the settings the environment does not preset (preset ones are read-only: what is
     * sent for them is ignored). A URL sent back with the masked password keeps the stored one.
     */
    async saveSettings(caller: EmployeeCaller, v: SettingsValues): Promise<MessagingSettings> {
      const before = await stored();
      const next: ChannelSettings = { ...before };
      for (const [field, key] of Object.entries(FIELDS) as [keyof SettingsValues, keyof ChannelSettings][]) {
        if (isPreset(key)) continue;
        const kept = keepPassword(v[field], before[key]);
        if (kept === null) throw unprocessable(`${field}: type the password again: the masked one only stays with the same server and user`);
        next[key] = kept || null;
      }
      // Checked as they will be used, with the presets: e-mail needs its From wherever each comes from.
      const used = { ...next };
      for (const k of Object.values(FIELDS)) if (isPreset(k)) used[k] = presets[k];
      let tidy: ChannelSettings;
      try {
        tidy = checkChannelSettings(used, devices);
      } catch (e) {
        if (e instanceof ChannelSettingsError) throw unprocessable(`${Object.entries(FIELDS).find(([, k]) => k === e.field)?.[0] ?? e.field}: ${e.message}`);
        throw e;
      }
      const checked = { ...next };
      for (const k of Object.values(FIELDS)) if (!isPreset(k)) checked[k] = tidy[k];
      const changed = Object.entries(FIELDS)
        .filter(([, k]) => (before[k] ?? null) !== (checked[k] ?? null))
        .map(([f]) => f);
      await db.transaction(async (tx) => {
        const value = JSON.stringify(checked);
        await tx.insert(boxSettings).values({ key: SETTINGS_KEY, value }).onConflictDoUpdate({ target: boxSettings.key, set: { value } });
        // Which settings changed, never their values (URLs hold passwords).
        await audit(tx, clock.now(), caller, "configure", "messaging", null, { changed });
      });
      await dropChannels();
      kick();
      return this.settings();
    },

    /** Sends one test message through one channel of the current settings, and says what happened in plain words. */
    async test(caller: EmployeeCaller, which: TestChannel, to: string): Promise<TestResult> {
      const eff = await effective();
      const only: ChannelSettings =
        which === "gateway"
          ? { ...NO_CHANNELS, smsGatewayUrl: eff.smsGatewayUrl }
          : which === "modem"
            ? { ...NO_CHANNELS, modemPath: eff.modemPath }
            : { ...NO_CHANNELS, smtpUrl: eff.smtpUrl, smtpFrom: eff.smtpFrom };
      const names = { gateway: "The SMS gateway (Android phone)", modem: "The GSM modem", smtp: "E-mail (SMTP)" } as const;
      if (!Object.values(only).some(Boolean)) return { ok: false, message: `${names[which]} is not set up` };
      const recipient = which === "smtp" ? (isEmailAddress(to.trim()) ? to.trim() : null) : dialable(to);
      if (!recipient) throw unprocessable(which === "smtp" ? "to: an e-mail address" : "to: a mobile number (digits, optionally starting with +)");
      const wait = testSends.take(which, clock.now().getTime());
      if (wait > 0)
        throw tooMany(`${names[which]} has been tested ${TESTS_PER_MINUTE} times in the last minute: wait ${seconds(wait)} s before testing it again`);
      let channel: Channel | null = null;
      try {
        const built = makeChannels(only);
        channel = which === "smtp" ? built.email : built.sms;
        if (!channel) return { ok: false, message: `${names[which]} is not set up` };
        await channel.send(
          {
            key: crypto.randomUUID(),
            to: recipient,
            text: `Test message from Ironbox at ${caller.agent.name}.`,
            subject: headerLine(`Ironbox test message from ${caller.agent.name}`),
          },
          AbortSignal.timeout(policy.sendTimeoutMs),
        );
        await audit(db, clock.now(), caller, "test", "messaging", null, { channel: which, to: recipient });
        return { ok: true, message: `Sent to ${recipient} through ${channel.label}` };
      } catch (e) {
        return { ok: false, message: scrub(e instanceof Error ? e.message : String(e), only) };
      } finally {
        await channel?.close?.().catch(() => {});
      }
    },
  };
}
export type MessagingService = ReturnType<typeof createMessagingService>;

/**
 * A URL sent back with the masked password keeps the stored password, but only for the same
 * scheme, server, port and user: otherwise whoever may edit the settings could send the stored
 * password to a server of their own without ever seeing it (null: refused).
 */
function keepPassword(sent: string, stored: string | null): string | null {
  const v = sent.trim();
  if (!v) return v;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return v;
  }
  if (decodeURIComponent(u.password) !== MASK) return v;
  let old: URL;
  try {
    old = new URL(stored ?? "");
  } catch {
    return null;
  }
  if (old.protocol !== u.protocol || old.host !== u.host || old.username !== u.username) return null;
  u.password = old.password;
  return u.toString();
}

/** An error message as people may see it: any password of these settings replaced by the mask. */
function scrub(message: string, s: ChannelSettings): string {
  let out = message;
  for (const url of [s.smsGatewayUrl, s.smtpUrl]) {
    if (!url) continue;
    try {
      const p = new URL(url).password;
      if (p) out = out.split(p).join(MASK).split(decodeURIComponent(p)).join(MASK);
    } catch {}
  }
  return out;
}
