import { z } from "zod";
import { HQ_STAFF, ROLES, route } from "../../http/route";
import { IdParams } from "../../domain/schemas";
import {
  BatchCounts,
  MessageListQuery,
  MessageTemplate,
  MessagingSettings,
  OutboxIdParams,
  OutboxRow,
  Preview,
  PreviewBody,
  SendMessagesBody,
  SendMessagesQuery,
  SendResult,
  SettingsValues,
  StateIdParams,
  TemplateBody,
  TestBody,
  TestResult,
} from "./model";
import type { MessagingService } from "./service";

const staff = { roles: ROLES };
const admin = { roles: ["admin"] } as const;

export function messagingRoutes(messaging: MessagingService) {
  return [
    route({
      method: "POST",
      path: "/messages/:id/status",
      tag: "messaging",
      summary: "Queues the ticket's status message (its state's template) to its customer; answers the outbox rows queued",
      access: staff,
      params: IdParams,
      response: z.array(OutboxRow),
      handler: ({ caller, params }) => messaging.statusMessage(caller, params.id),
    }),
    route({
      method: "POST",
      path: "/customers/sendMessages",
      tag: "messaging",
      summary:
        "Queues a message to the chosen customers (at most 1,000) or, with all=true, to every customer of the caller's scope; skips and counts those who asked for none or have no address",
      access: admin,
      query: SendMessagesQuery,
      body: SendMessagesBody,
      response: SendResult,
      handler: ({ caller, query, body }) => messaging.sendBulk(caller, query.all === "true", body.customer_ids, body.text),
    }),
    route({
      method: "GET",
      path: "/messages",
      tag: "messaging",
      summary: "Outbox rows, newest first, of a customer, a ticket or a batch (the caller's shop's)",
      access: staff,
      query: MessageListQuery,
      response: z.array(OutboxRow),
      handler: ({ caller, query }) => messaging.list(caller, query),
    }),
    route({
      method: "GET",
      path: "/messages/batches/:id",
      tag: "messaging",
      summary: "A bulk send's rows counted per state",
      access: staff,
      params: IdParams,
      response: BatchCounts,
      handler: ({ caller, params }) => messaging.batchCounts(caller, params.id),
    }),
    route({
      method: "POST",
      path: "/messages/outbox/:id/retry",
      tag: "messaging",
      summary: "Sends a failed message, or one whose fate is unknown, again",
      access: staff,
      params: OutboxIdParams,
      response: OutboxRow,
      handler: ({ caller, params }) => messaging.retry(caller, params.id),
    }),
    route({
      method: "GET",
      path: "/messaging/settings",
      tag: "messaging",
      summary: "How messages leave the box (passwords masked; environment presets read-only)",
      access: admin,
      response: MessagingSettings,
      handler: () => messaging.settings(),
    }),
    route({
      method: "PUT",
      path: "/messaging/settings",
      tag: "messaging",
      summary: "Saves the SMS gateway URL, modem path, SMTP URL and From (*** in a URL keeps the stored password)",
      // The channels are the box's, for every shop on it: HQ staff set them (a shop's admin on a
      // shared box must not point them at a phone of its own and read the others' messages).
      access: HQ_STAFF,
      body: SettingsValues,
      response: MessagingSettings,
      handler: ({ caller, body }) => messaging.saveSettings(caller, body),
    }),
    route({
      method: "POST",
      path: "/messaging/settings/test",
      tag: "messaging",
      summary: "Sends one test message through one channel and says what happened",
      access: admin,
      body: TestBody,
      response: TestResult,
      handler: ({ caller, body }) => messaging.test(caller, body.channel, body.to),
    }),
    route({
      method: "GET",
      path: "/messaging/templates",
      tag: "messaging",
      summary: "Every ticket state's status message template",
      access: staff,
      response: z.array(MessageTemplate),
      handler: () => messaging.templates(),
    }),
    route({
      method: "PUT",
      path: "/messaging/templates/:state_id",
      tag: "messaging",
      summary: "Saves a ticket state's status message template (unknown placeholders refused; HQ staff only)",
      // Templates are HQ's reference data (modules/reference), sent by every shop under its own
      // name: HQ staff write them, like the channels; a shop enrolled with HQ gets them from there.
      access: HQ_STAFF,
      hqOwned: true,
      params: StateIdParams,
      body: TemplateBody,
      response: MessageTemplate,
      handler: ({ caller, params, body }) => messaging.saveTemplate(caller, params.state_id, body.text),
    }),
    route({
      method: "POST",
      path: "/messaging/templates/preview",
      tag: "messaging",
      summary: "A template rendered for a real ticket, with its SMS encoding, length and parts",
      access: staff,
      body: PreviewBody,
      response: Preview,
      handler: ({ caller, body }) => messaging.preview(caller, body.text, body.ticket_id),
    }),
  ];
}
