// How a message is written and addressed: clean text, one-line e-mail headers, a dialable
// mobile, the channel a customer is reached by, and a status message rendered without holes.
// Pure helpers shared by the status, bulk and automatic sends.
import type { outgoingMessages } from "../../../db/schema";
import { type Channel, isEmailAddress } from "../../../drivers/messaging";
import { PLACEHOLDERS, type PlaceholderKey, renderStatusMessage, type TemplateValues, unknownPlaceholders } from "../../domain/messageTemplate";
import { unprocessable } from "../../platform/errors";
import type { OutboxRow } from "./model";

export type Row = typeof outgoingMessages.$inferSelect;
export type Kind = Row["channel"];
export type Channels = { sms: Channel | null; email: Channel | null };

/** Why a status message lacks a value its template uses, and what to do (the 422's words). */
export const LACKS: Record<PlaceholderKey, string> = {
  customer_name: "the customer has no name (add it on the customer screen)",
  ticket_id: "the ticket has no number",
  state: "the ticket's state has no name",
  amount_due: "the amount due is unknown",
  shop_name: "the shop has no name (HQ sets it on the shop's details)",
  shop_phone: "the shop has no phone number (add one on the shop's details)",
  delivery_date: "the ticket has no delivery date",
};

/** Text for an SMS or an e-mail body: no control characters but line breaks. */
export const cleanBody = (s: string) => s.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, "");
/** One line for an e-mail header: no line breaks, so nothing can be added to the header. */
export const headerLine = (s: string) =>
  s
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .trim()
    .slice(0, 150);
/** A mobile the phone can dial: digits with an optional leading +, spaces dropped. */
export function dialable(mobile: string): string | null {
  const m = mobile.replace(/\s+/g, "");
  return /^\+?\d{6,15}$/.test(m) ? m : null;
}

export type Recipient = { channel: Kind; recipient: string };
/** SMS when the customer has a mobile and SMS is set up, otherwise e-mail when both are there. */
export function addressOf(c: { mobile: string; email_address: string }, ch: Channels): Recipient | null {
  const mobile = dialable(c.mobile);
  if (ch.sms && mobile) return { channel: "sms", recipient: mobile };
  const email = c.email_address.trim();
  if (ch.email && isEmailAddress(email)) return { channel: "email", recipient: email };
  return null;
}

/** An outbox row as the API shows it: no idempotency key, claim time or gateway id. */
export const outRow = (r: Row): OutboxRow => {
  const { key: _key, claimed_at: _claimed, gateway_id: _gateway, ...rest } = r;
  return rest;
};

export function refuseUnknownPlaceholders(text: string) {
  const bad = unknownPlaceholders(text);
  if (bad.length)
    throw unprocessable(`text: unknown placeholder ${bad.map((b) => `{${b}}`).join(", ")}; use ${PLACEHOLDERS.map((p) => `{${p.key}}`).join(", ")}`);
}

/** The status message as sent, never with a hole ("is now ."): the neutral text instead, or refused naming what even that lacks. */
export function statusText(template: string, values: TemplateValues): string {
  const r = renderStatusMessage(template, values);
  if (!r.ok) throw unprocessable(`The message cannot be sent as written: ${r.missing.map((k) => LACKS[k]).join("; ")}`);
  return cleanBody(r.text);
}

export const noChannel = () => unprocessable("No way to send messages is set up: an admin sets up SMS or e-mail on Messaging settings");
