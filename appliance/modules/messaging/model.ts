// The messaging module's contract with the UI: outbox rows, bulk sends, templates and the
// channel settings (issue 14).
import { z } from "zod";
import { MESSAGE_TEXT_MAX, TEMPLATE_MAX } from "../../domain/messageTemplate";
import { HHMM } from "../../domain/quietHours";
import { text } from "../../domain/schemas";

/**
 * An outbox row's state. queued: waiting for the sender (or its next attempt); sending: claimed
 * by the sender; sent / failed: final; unknown: the box stopped between handing it to a channel
 * that cannot be asked and recording the answer, so a person decides (retry or leave).
 */
export const MESSAGE_STATUSES = ["queued", "sending", "sent", "failed", "unknown"] as const;
export const MessageStatus = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatus>;

/** What /api/v1/events says when an outbox row changes state: the message screens follow a send's progress. */
export interface OutboxEvent {
  type: "message";
  agent_id: number;
  id: number;
  batch_id: number | null;
  ticket_id: number | null;
  customer_id: number | null;
  status: MessageStatus;
  at: string;
}

/** How many customers one chosen-ids send may name (all=true has no such cap: it is queued in chunks). */
export const MAX_CUSTOMER_IDS = 1000;

export const OutboxRow = z.object({
  id: z.number(),
  batch_id: z.number().nullable(),
  agent_id: z.number(),
  employee_id: z.number().nullable(),
  ticket_id: z.number().nullable(),
  customer_id: z.number().nullable(),
  channel: z.enum(["sms", "email"]),
  recipient: z.string(),
  subject: z.string(),
  text: z.string(),
  attachment: z.string().nullable().describe('What an e-mail carries, made when it is sent (e.g. "invoice:12": the invoice\'s PDF)'),
  status: MessageStatus,
  attempts: z.number(),
  next_attempt_at: z.string().nullable().describe("When a queued row is tried (again)"),
  last_error: z.string().nullable().describe("The channel's last error, in plain words"),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  updated_at: z.string(),
});
export type OutboxRow = z.infer<typeof OutboxRow>;

export const MessageListQuery = z.object({
  customer_id: z.coerce.number().int().positive().optional(),
  ticket_id: z.coerce.number().int().positive().optional(),
  batch_id: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type MessageListQuery = z.infer<typeof MessageListQuery>;

/** POST /customers/sendMessages?all=true|false. */
export const SendMessagesQuery = z.object({ all: z.enum(["true", "false"]).optional() });
export const SendMessagesBody = z.object({
  customer_ids: z
    .array(z.number().int().positive())
    .max(MAX_CUSTOMER_IDS, `customer_ids: at most ${MAX_CUSTOMER_IDS} customers per send; choose All Customers for more`)
    .default([]),
  text: text(MESSAGE_TEXT_MAX).min(1, "text: write the message"),
});
export type SendMessagesBody = z.infer<typeof SendMessagesBody>;

/** What a bulk send answers: its batch, how many rows were queued and who was skipped and why. */
export const SendResult = z.object({
  batch_id: z.number(),
  queued: z.number(),
  skipped: z.object({
    no_messages: z.number().describe("Customers who asked for no messages"),
    no_address: z.number().describe("Customers with neither a usable mobile (with SMS set up) nor an e-mail address"),
  }),
});
export type SendResult = z.infer<typeof SendResult>;

/** A batch's rows counted per state (live progress of a bulk send). */
export const BatchCounts = z.object({
  queued: z.number(),
  sending: z.number(),
  sent: z.number(),
  failed: z.number(),
  unknown: z.number(),
  total: z.number(),
});
export type BatchCounts = z.infer<typeof BatchCounts>;

export const OutboxIdParams = z.object({ id: z.coerce.number().int().positive() });

/** A ticket state's status message; `is_default` until an admin saved one. */
export const MessageTemplate = z.object({
  state_id: z.number(),
  state: z.string(),
  text: z.string(),
  is_default: z.boolean(),
  auto_send: z.boolean().describe("Sent by itself, once per ticket, when a ticket reaches this state (quiet hours and consent apply)"),
  updated_at: z.string().nullable(),
  updated_by: z.number().nullable(),
});
export type MessageTemplate = z.infer<typeof MessageTemplate>;

export const StateIdParams = z.object({ state_id: z.coerce.number().int().positive() });
export const TemplateBody = z.object({
  text: text(TEMPLATE_MAX).min(1, "text: write the message"),
  auto_send: z.boolean().optional().describe("Send by itself when a ticket reaches this state; left out keeps what was set"),
});
export const PreviewBody = z.object({ text: z.string().max(TEMPLATE_MAX), ticket_id: z.number().int().positive() });

/** The rendered text and what it costs as an SMS. */
export const Preview = z.object({
  text: z.string(),
  sms: z.object({
    encoding: z.enum(["GSM-7", "UCS-2"]),
    parts: z.number(),
    length: z.number().describe("Characters (GSM-7 septets, or UTF-16 units for UCS-2)"),
  }),
});
export type Preview = z.infer<typeof Preview>;

/** GET /messages/{id}/status/preview: the ticket's status message exactly as it would be queued, and where it would go. */
export const StatusPreview = Preview.extend({
  ticket_id: z.number(),
  customer_name: z.string(),
  channel: z.enum(["sms", "email"]),
  recipient: z.string(),
});
export type StatusPreview = z.infer<typeof StatusPreview>;

/** POST /customers/sendMessages/count: what a bulk send would do, before "Are you sure?". */
export const BulkCount = z.object({
  customers: z.number().describe("Customers chosen (or all of the caller's scope)"),
  will_send: z.number().describe("Customers the message would be queued to"),
  skipped: SendResult.shape.skipped,
});
export type BulkCount = z.infer<typeof BulkCount>;
export const BulkCountBody = SendMessagesBody.pick({ customer_ids: true });

/** Quiet hours: automatic messages reached between start and end (the shop's time zone) wait until end. */
export const QuietHoursSettings = z.object({
  enabled: z.boolean(),
  start: z.string().regex(HHMM, "start: a time as HH:MM (24-hour)"),
  end: z.string().regex(HHMM, "end: a time as HH:MM (24-hour)"),
});
export type QuietHoursSettings = z.infer<typeof QuietHoursSettings>;

/** The channel settings as typed on the settings screen ("" = not set). */
export const SettingsValues = z.object({
  sms_gateway_url: text(500),
  modem_path: text(200),
  smtp_url: text(500),
  smtp_from: text(200),
});
export type SettingsValues = z.infer<typeof SettingsValues>;

export const MessagingSettings = z.object({
  values: SettingsValues.describe("Passwords in URLs are shown as ****; sending **** back keeps the stored one"),
  presets: z
    .object({ sms_gateway_url: z.boolean(), modem_path: z.boolean(), smtp_url: z.boolean(), smtp_from: z.boolean() })
    .describe("Set by the box's environment: read-only here"),
  channels: z.object({ sms: z.string().nullable(), email: z.string().nullable() }).describe("The channel each kind of message leaves by (null: none set up)"),
});
export type MessagingSettings = z.infer<typeof MessagingSettings>;

export const TestChannel = z.enum(["gateway", "modem", "smtp"]);
export type TestChannel = z.infer<typeof TestChannel>;
export const TestBody = z.object({ channel: TestChannel, to: text(200).min(1, "to: a phone number or e-mail address") });
export const TestResult = z.object({ ok: z.boolean(), message: z.string() });
export type TestResult = z.infer<typeof TestResult>;

/** GET /messaging/inbox: open entries (the default) or all=true for handled ones too. */
export const InboxQuery = z.object({
  all: z.enum(["true", "false"]).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type InboxQuery = z.infer<typeof InboxQuery>;

/** A text that came back, as the inbox shows it (issue 35). */
export const InboxEntry = z.object({
  id: z.number(),
  agent_id: z.number().nullable().describe("The customer's shop; null for a number no customer has"),
  customer_id: z.number().nullable(),
  customer_full_name: z.string().nullable(),
  reminder_id: z.number().nullable().describe("The pickup reminder it answered, if any"),
  source: z.enum(["gateway", "modem"]),
  phone: z.string(),
  text: z.string(),
  action: z
    .enum(["confirmed", "skipped", "stopped", "inbox"])
    .describe("What the box did: confirmed or skipped the pickup, set no messages, or left it for a person"),
  note: z.string(),
  received_at: z.string(),
  handled_at: z.string().nullable(),
  handled_by: z.number().nullable(),
  reply_message_id: z.number().nullable().describe("The outbox row of the answer sent from the inbox"),
});
export type InboxEntry = z.infer<typeof InboxEntry>;

export const InboxReplyBody = z.object({ text: text(MESSAGE_TEXT_MAX).min(1, "text: write the answer") });

/** What the gateway's webhook answers (the phone only looks at the status). */
export const InboundResult = z.object({
  event: z.string(),
  action: z.enum(["confirmed", "skipped", "stopped", "inbox", "ignored"]),
  duplicate: z.boolean().describe("This event id was received before: nothing was done again"),
});

/** The webhook's body as the gateway sends it (documentation: it is read only after the signature holds). */
export const InboundWebhookBody = z.object({
  id: z.string().describe("The event's id (the same on a redelivery)"),
  event: z.string().describe("sms:received (others are acknowledged and ignored)"),
  deviceId: z.string().optional(),
  webhookId: z.string().optional(),
  payload: z
    .object({
      message: z.string(),
      phoneNumber: z.string(),
      receivedAt: z.string().optional(),
      messageId: z.string().optional(),
      simNumber: z.number().nullable().optional(),
    })
    .optional(),
});
