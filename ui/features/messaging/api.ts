import type {
  BatchCounts,
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
import { api, apiList } from "../../lib/api";

// The calls the messaging screens make. The shapes are the box's own: the messaging module's
// model, imported type-only (README "Layout").
export type {
  BatchCounts,
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
export const sendBulk = (all: boolean, customer_ids: number[], text: string) =>
  api<SendResult>("POST", "/customers/sendMessages", { query: { all }, body: { customer_ids, text } });
export const batchCounts = (id: number) => api<BatchCounts>("GET", `/messages/batches/${id}`, { quiet: true });
export const retryMessage = (id: number) => api<OutboxRow>("POST", `/messages/outbox/${id}/retry`);
export const customersByDeliveryDate = (date: string) => apiList<Customer>(`/customers/byDeliveryDate/${date}`);

export const listTemplates = () => api<MessageTemplate[]>("GET", "/messaging/templates", { quiet: true });
export const saveTemplate = (stateId: number, text: string) => api<MessageTemplate>("PUT", `/messaging/templates/${stateId}`, { body: { text } });
export const previewTemplate = (text: string, ticket_id: number) => api<Preview>("POST", "/messaging/templates/preview", { body: { text, ticket_id } });

export const getSettings = () => api<MessagingSettings>("GET", "/messaging/settings", { quiet: true });
export const putSettings = (values: SettingsValues) => api<MessagingSettings>("PUT", "/messaging/settings", { body: values });
export const testChannel = (channel: TestChannel, to: string) => api<TestResult>("POST", "/messaging/settings/test", { body: { channel, to }, quiet: true });
