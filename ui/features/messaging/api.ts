import { api, apiList } from "../../lib/api";

// The calls the messaging screens make (README "Messaging"). Provisional shapes until the
// messaging module's model lands; then they are imported type-only from it.

export type MessageStatus = "queued" | "sending" | "sent" | "failed" | "unknown";

export interface OutboxRow {
  id: number;
  batch_id: number | null;
  ticket_id: number | null;
  customer_id: number | null;
  channel: "sms" | "email";
  recipient: string;
  text: string;
  status: MessageStatus;
  attempts: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

export interface SendResult {
  batch_id: number;
  queued: number;
  skipped: { no_messages: number; no_address: number };
}

export type BatchCounts = Record<MessageStatus, number>;

export interface MessageQuery {
  customer_id?: number;
  ticket_id?: number;
  batch_id?: number;
}

export const listMessages = (q: MessageQuery) => api<OutboxRow[]>("GET", "/messages", { query: { ...q }, quiet: true });
export const sendStatusMessage = (ticketId: number) => api<OutboxRow[]>("POST", `/messages/${ticketId}/status`);
export const sendBulk = (all: boolean, customer_ids: number[], text: string) =>
  api<SendResult>("POST", "/customers/sendMessages", { query: { all }, body: { customer_ids, text } });
export const batchCounts = (id: number) => api<BatchCounts>("GET", `/messages/batches/${id}`, { quiet: true });
export const retryMessage = (id: number) => api<OutboxRow>("POST", `/messages/outbox/${id}/retry`);
export const customersByDeliveryDate = (date: string) => apiList<{ id: number; full_name: string }>(`/customers/byDeliveryDate/${date}`);

export interface MessageTemplate {
  state_id: number;
  state: string;
  text: string;
}
export const listTemplates = () => api<MessageTemplate[]>("GET", "/messaging/templates", { quiet: true });
export const saveTemplate = (stateId: number, text: string) => api<MessageTemplate>("PUT", `/messaging/templates/${stateId}`, { body: { text } });
export const previewTemplate = (text: string, ticket_id: number) =>
  api<{ text: string }>("POST", "/messaging/templates/preview", { body: { text, ticket_id } });

export type TestChannel = "gateway" | "modem" | "smtp";
export interface MessagingSettings {
  values: { sms_gateway_url: string; modem_path: string; smtp_url: string; smtp_from: string };
  presets: Record<keyof MessagingSettings["values"], boolean>;
}
export const getSettings = () => api<MessagingSettings>("GET", "/messaging/settings", { quiet: true });
export const putSettings = (values: MessagingSettings["values"]) => api<MessagingSettings>("PUT", "/messaging/settings", { body: values });
export const testChannel = (channel: TestChannel, to: string) =>
  api<{ ok: boolean; message: string }>("POST", "/messaging/settings/test", { body: { channel, to }, quiet: true });
