// The messaging module put together (issue 14, split by responsibility in issue 23):
//   compose.ts     text, addresses and the rendered status message (pure)
//   channels.ts    the channel settings, the channels built from them, the test message
//   sender.ts      the outbox worker: claim, send, back off, recover after a restart
//   outbox.ts      the outbox as the screens see it: list, batch progress, retry
//   status.ts      a ticket's status message: preview and send
//   templates.ts   the status message templates (HQ's reference data)
//   bulk.ts        bulk sends and their count before "Are you sure?"
//   auto.ts        automatic status messages, following the tickets' state log
//   quietHours.ts  the quiet hours setting
//   reminders.ts   pickup reminders the day before ("Reply YES to confirm or SKIP"), with back-off
//   inbound.ts     texts that come back (gateway webhook, modem): matched and acted on
//   inbox.ts       what a person must read: list, answer, mark handled
// Tickets, customers and shops are read through their modules' read functions, never their tables.
import { inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { outgoingMessages } from "../../../db/schema";
import type { OutgoingMessage } from "../../../drivers/messaging";
import type { DeviceAccess } from "../../../drivers/devices";
import type { ChannelSettings } from "../../../drivers/messaging";
import type { Clock } from "../../platform/clock";
import { type AgentReads, agentReads } from "../agents/reads";
import type { EmployeeCaller } from "../auth/caller";
import { type CustomerReads, customerReads } from "../customers/reads";
import type { BoxEventBus as EventBus } from "../events/model";
import { type TicketReads, ticketReads } from "../tickets/reads";
import { createAutoMessages } from "./auto";
import { createBulkSends } from "./bulk";
import { type ChannelFactory, createChannelSettings } from "./channels";
import type { MessagingSettings, QuietHoursSettings, SettingsValues } from "./model";
import { createOutbox, newRow } from "./outbox";
import { createQuietHours } from "./quietHours";
import { type Announce, createSender, DEFAULT_POLICY, type SenderPolicy } from "./sender";
import { createStatusMessages, createTicketContexts } from "./status";
import { createTemplates } from "./templates";
import { type CodeMessage, NO_LINKS, queueCode, queueTicketText, type TicketLinks, type TicketText } from "./links";
import { createInbound, modemSourceId } from "./inbound";
import { createInbox } from "./inbox";
import { createReminders } from "./reminders";

export type { Channels } from "./compose";
export type { ChannelFactory } from "./channels";
export { backoffMs, DEFAULT_POLICY, type SenderPolicy } from "./sender";

/** How often the modem's stored texts are read. */
const MODEM_READ_MS = 30_000;

export function createMessagingService({
  db,
  clock,
  bus,
  devices,
  presets,
  makeChannels,
  policy = DEFAULT_POLICY,
  webhookSecret = null,
  log = console.error,
  reads = { tickets: ticketReads(db), customers: customerReads(db), shops: agentReads(db) },
  attachments,
  links = NO_LINKS,
}: {
  db: Db;
  clock: Clock;
  bus: EventBus;
  devices: DeviceAccess;
  /** Settings the box's environment presets (config.messaging): these win and are read-only. */
  presets: ChannelSettings;
  makeChannels: ChannelFactory;
  policy?: SenderPolicy;
  /** IRONBOX_SMS_WEBHOOK_SECRET: the key the gateway signs its incoming-message webhook with (null: webhook off). */
  webhookSecret?: string | null;
  log?: (m: string, e?: unknown) => void;
  /** What messaging reads of other modules (their read functions). */
  reads?: { tickets: TicketReads; customers: CustomerReads; shops: AgentReads };
  /** The files an e-mail row names (issue 34: accounts makes an invoice's PDF). */
  attachments?: (ref: string) => Promise<NonNullable<OutgoingMessage["attachments"]>>;
  /** Issue 35: the status link a ticket's message carries (modules/public/links.ts); none by default. */
  links?: TicketLinks;
}) {
  const announce: Announce = (r, status) =>
    bus.publish({
      type: "message",
      agent_id: r.agent_id,
      id: r.id,
      batch_id: r.batch_id,
      ticket_id: r.ticket_id,
      customer_id: r.customer_id,
      status,
      at: clock.now().toISOString(),
    });
  const settings = createChannelSettings({ db, clock, devices, presets, makeChannels, sendTimeoutMs: policy.sendTimeoutMs, log });
  const channels = settings.channels;
  // The sender's poll runs the automatic messages' follower, made below (kick is only called later).
  let follow: () => Promise<unknown> = async () => {};
  const sender = createSender({ db, clock, channels, announce, policy, log, onPoll: () => follow(), attachments });
  const kick = sender.kick;
  const contexts = createTicketContexts(reads);
  const templates = createTemplates({ db, clock, tickets: reads.tickets, contexts });
  const quiet = createQuietHours({ db, clock, log });
  const outbox = createOutbox({ db, clock, tickets: reads.tickets, customers: reads.customers, announce, kick });
  const status = createStatusMessages({ db, clock, contexts, templates, channels, announce, kick, links });
  const bulk = createBulkSends({ db, clock, customers: reads.customers, channels, kick });
  const auto = createAutoMessages({ db, clock, tickets: reads.tickets, contexts, templates, quiet, channels, announce, kick, links });
  const reminders = createReminders({ db, clock, customers: reads.customers, shops: reads.shops, quiet, channels, announce, kick });
  const inbound = createInbound({ db, clock, customers: reads.customers, secret: webhookSecret });
  const inbox = createInbox({ db, clock, customers: reads.customers, channels, announce, kick });
  /** Texts stored on the modem: read, recorded, then deleted there (a channel without receive() has none). */
  let modemReadAt = 0;
  async function readModem(force = false): Promise<number> {
    const sms = (await channels()).sms;
    if (!sms?.receive) return 0;
    // Each read is a session on the modem's one command line: every 30 s, not on every 2 s poll.
    const t = clock.now().getTime();
    if (!force && Math.abs(t - modemReadAt) < MODEM_READ_MS) return 0;
    modemReadAt = t;
    return sms.receive(async (m) => {
      await inbound.apply({ source: "modem", sourceId: modemSourceId(m.from, m.sentAt, m.text), phone: m.from, text: m.text });
    });
  }
  // One poll: state changes, then reminders, then the modem's stored texts; each failure logged on its own.
  follow = async () => {
    await auto.follow().catch((e) => log("messaging: automatic messages failed", e));
    await reminders.remind().catch((e) => log("messaging: pickup reminders failed", e));
    await readModem().catch((e) => log("messaging: reading the modem's texts failed", e));
  };

  return {
    sender: {
      start: sender.start,
      stop() {
        sender.stop();
        void settings.dropChannels();
      },
      pause: sender.pause,
      tick: sender.tick,
      recover: sender.recover,
      get idle() {
        return sender.idle;
      },
    },
    channels,
    /**
     * An e-mail row written in the caller's transaction (issue 34: an invoice sent exactly once
     * writes its send row beside it); its key is the caller's, unique. Call kick() after commit.
     */
    async queueEmail(
      q: Pick<Db, "insert">,
      m: { key: string; agent_id: number; employee_id: number; to: string; subject: string; text: string; attachment: string },
    ): Promise<number> {
      const at = clock.now().toISOString();
      const { key, to, ...rest } = m;
      const [r] = await q
        .insert(outgoingMessages)
        .values({ ...newRow({ ...rest, customer_id: null, ticket_id: null, batch_id: null, channel: "email", recipient: to }, at), key })
        .returning({ id: outgoingMessages.id });
      return r!.id;
    },
    kick,
    /** Where these rows stand (queued, sending, sent, failed, unknown). */
    async statusOf(ids: number[]): Promise<Map<number, string>> {
      if (!ids.length) return new Map();
      const rows = await db
        .select({ id: outgoingMessages.id, status: outgoingMessages.status })
        .from(outgoingMessages)
        .where(inArray(outgoingMessages.id, ids));
      return new Map(rows.map((r) => [r.id, r.status]));
    },
    /** Automatic status messages: the sender's poll follows the state log; tests step it with follow(). */
    auto,

    /** Issue 35: a one-time code by SMS to a customer's mobile, queued now (null: no SMS channel is set up). */
    queueCode: (to: CodeMessage) => queueCode({ db, clock, channels, announce, kick }, to),
    /** Issue 35: a ticket's text with its status link by SMS, queued in the caller's write `q` (null: no SMS channel). */
    queueTicketText: (q: Pick<Db, "insert">, to: TicketText) => queueTicketText({ clock, channels, kick, links }, q, to),
    /** Pickup reminders: the sender's poll runs remind(); tests step it with the clock. */
    reminders,
    /** The modem's stored texts, read now (the sender's poll does it every 30 s). */
    readModem: () => readModem(true),
    inbound: inbound.webhook,
    applyInbound: inbound.apply,
    inbox: inbox.list,
    replyInbox: inbox.reply,
    handleInbox: inbox.markHandled,

    statusMessage: status.send,
    statusPreview: status.preview,
    sendBulk: bulk.send,
    countBulk: bulk.count,
    list: outbox.list,
    batchCounts: outbox.batchCounts,
    retry: outbox.retry,

    templates: templates.list,
    saveTemplate: templates.save,
    preview: templates.preview,

    settings: settings.settings,
    async saveSettings(caller: EmployeeCaller, v: SettingsValues): Promise<MessagingSettings> {
      await settings.save(caller, v);
      kick();
      return settings.settings();
    },
    test: settings.test,
    quietHours: quiet.get,
    saveQuietHours: (caller: EmployeeCaller, q: QuietHoursSettings) => quiet.save(caller, q),
  };
}
export type MessagingService = ReturnType<typeof createMessagingService>;
