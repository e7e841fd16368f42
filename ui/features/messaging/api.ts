import type {
  BatchCounts,
  BulkCount,
  QuietHoursSettings,
  StatusPreview,
  MessageListQuery,
  MessageTemplate,
  MessagingSettings,
  OutboxRow,
  Preview,
  SendResult,
  SettingsValues,
  TestChannel,
  TestResult,
} from "../../../appliance/modules/messaging/model";
import type { Customer } from "../../../appliance/modules/customers/model";
import { api, fetchList } from "../../lib/api";

// The calls the messaging screens make. The shapes are the box's own: the messaging module's
// model, imported type-only (README "Layout").
export type {
  BatchCounts,
  BulkCount,
  QuietHoursSettings,
  StatusPreview,
  MessageStatus,
  MessageTemplate,
  MessagingSettings,
  OutboxRow,
  SendResult,
  TestChannel,
} from "../../../appliance/modules/messaging/model";

export type MessageQuery = Partial<Pick<MessageListQuery, "customer_id" | "ticket_id" | "batch_id">>;

export const listMessages = (q: MessageQuery) => api<OutboxRow[]>("GET", "/messages", { query: { ...q }, quiet: true });
/** The ticket's status message to its customer (spec §7); answers the rows it queued. */
export const sendStatusMessage = (ticketId: number) => api<OutboxRow[]>("POST", `/messages/${ticketId}/status`);
/** What the status message will say and where it goes, before anyone sends it (issue 25). */
export const previewStatusMessage = (ticketId: number) => api<StatusPreview>("GET", `/messages/${ticketId}/status/preview`);
/** How many a bulk send reaches and skips, for "Are you sure!" (issue 25); queues nothing. */
export const countBulk = (all: boolean, customer_ids: number[]) =>
  api<BulkCount>("POST", "/customers/sendMessages/count", { query: { all }, body: { customer_ids } });
export const sendBulk = (all: boolean, customer_ids: number[], text: string) =>
  api<SendResult>("POST", "/customers/sendMessages", { query: { all }, body: { customer_ids, text } });
export const batchCounts = (id: number) => api<BatchCounts>("GET", `/messages/batches/${id}`, { quiet: true });
export const retryMessage = (id: number) => api<OutboxRow>("POST", `/messages/outbox/${id}/retry`);
export const customersByDeliveryDate = (date: string) => fetchList<Customer>(`/customers/byDeliveryDate/${date}`);

export const listTemplates = () => api<MessageTemplate[]>("GET", "/messaging/templates", { quiet: true });
export const saveTemplate = (stateId: number, text: string, auto_send: boolean) =>
  api<MessageTemplate>("PUT", `/messaging/templates/${stateId}`, { body: { text, auto_send } });
export const previewTemplate = (text: string, ticket_id: number) => api<Preview>("POST", "/messaging/templates/preview", { body: { text, ticket_id } });

export const getSettings = () => api<MessagingSettings>("GET", "/messaging/settings", { quiet: true });
export const putSettings = (values: SettingsValues) => api<MessagingSettings>("PUT", "/messaging/settings", { body: values });
export const testChannel = (channel: TestChannel, to: string) => api<TestResult>("POST", "/messaging/settings/test", { body: { channel, to }, quiet: true });
export const getQuietHours = () => api<QuietHoursSettings>("GET", "/messaging/settings/quietHours", { quiet: true });
export const putQuietHours = (q: QuietHoursSettings) => api<QuietHoursSettings>("PUT", "/messaging/settings/quietHours", { body: q });

export type { InboxEntry } from "../../../appliance/modules/messaging/model";
import type { InboxEntry } from "../../../appliance/modules/messaging/model";
/** Texts that came back and need a person (issue 35): open ones, or all. */
export const listInbox = (all = false) => api<InboxEntry[]>("GET", "/messaging/inbox", { query: { all }, quiet: true });
export const replyInbox = (id: number, text: string) => api<InboxEntry>("POST", `/messaging/inbox/${id}/reply`, { body: { text } });
export const handleInbox = (id: number) => api<InboxEntry>("POST", `/messaging/inbox/${id}/handled`);
