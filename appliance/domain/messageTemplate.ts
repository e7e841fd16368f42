// Ticket status message templates (issue 14): the placeholders an admin may use, the default
// text of a state, how a state is said to a customer, and the one renderer the outbox and the
// editor's preview share. Pure: the UI imports these values too.

/** The placeholders a template may hold, in the order the editor offers them. */
export const PLACEHOLDERS = [
  { key: "customer_name", label: "Customer name" },
  { key: "ticket_id", label: "Ticket number" },
  { key: "state", label: "Ticket state" },
  { key: "amount_due", label: "Amount due" },
  { key: "shop_name", label: "Shop name" },
  { key: "shop_phone", label: "Shop phone" },
  { key: "delivery_date", label: "Delivery date" },
] as const;

export type PlaceholderKey = (typeof PLACEHOLDERS)[number]["key"];
export type TemplateValues = Record<PlaceholderKey, string>;

/** The longest template an admin may save (a few SMS parts; e-mail takes the same text). */
export const TEMPLATE_MAX = 1000;
/** The longest bulk message text (an SMS of about 10 parts); the message box stops there too. */
export const MESSAGE_TEXT_MAX = 1500;

const KNOWN = new Set<string>(PLACEHOLDERS.map((p) => p.key));
/** `{word}`: anything else in braces is plain text and left alone. */
const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** The placeholders in `text` that are not in the list (a typo would otherwise reach customers as "{custmer_name}"). */
export function unknownPlaceholders(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER)) if (!KNOWN.has(m[1]!)) found.add(m[1]!);
  return [...found];
}

/** The template with each known placeholder replaced by its value. */
export function renderTemplate(text: string, values: TemplateValues): string {
  return text.replace(PLACEHOLDER, (whole, key: string) => (KNOWN.has(key) ? values[key as PlaceholderKey] : whole));
}

/** The known placeholders `text` uses whose value is empty (they would leave a hole: "is now ."). */
export function emptyPlaceholders(text: string, values: TemplateValues): PlaceholderKey[] {
  const found = new Set<PlaceholderKey>();
  for (const m of text.matchAll(PLACEHOLDER)) if (KNOWN.has(m[1]!) && !values[m[1] as PlaceholderKey].trim()) found.add(m[1] as PlaceholderKey);
  return [...found];
}

/**
 * What a status message says when its template uses a value the ticket lacks (the spec's
 * empty state has no name people could read, a shop may have no phone): no {state}, and only
 * values every ticket has.
 */
export const NEUTRAL_TEMPLATE = "Dear {customer_name}, there is news about your ticket {ticket_id} at {shop_name}: please get in touch with us.";

/** A status message as it will be sent, or the values it lacks (a message with a hole is never sent). */
export type StatusRender = { ok: true; text: string; neutral: boolean } | { ok: false; missing: PlaceholderKey[] };

/**
 * Renders a status message without holes: a template that uses an empty value (a state that
 * has no name, a shop without a phone) falls back to NEUTRAL_TEMPLATE; when even that lacks a
 * value (no customer or shop name) the values are named, to be refused.
 */
export function renderStatusMessage(template: string, values: TemplateValues): StatusRender {
  let text = template;
  let missing = emptyPlaceholders(text, values);
  const neutral = missing.length > 0;
  if (neutral) {
    text = NEUTRAL_TEMPLATE;
    missing = emptyPlaceholders(text, values);
  }
  return missing.length ? { ok: false, missing } : { ok: true, text: renderTemplate(text, values), neutral };
}

/** How a message says a ticket has no delivery date yet (in place of an empty {delivery_date}). */
export const NO_DELIVERY_DATE = "to be agreed";

/** How the customer is told each of spec §4's states ("your ticket … is now picked up"). */
const SAYING: Record<string, string> = {
  CREATED: "being written up",
  "AWAITING PICKUP": "waiting to be picked up",
  "PICKED UP": "picked up",
  TECNOWASH: "being cleaned",
  MARKED: "in for cleaning",
  "IN PROGRESS": "being cleaned",
  "AWAITING DELIVERY": "ready for delivery",
  "OUT FOR DELIVERY": "out for delivery",
  DELIVERED: "delivered",
  "DELIVERED AND PAID": "delivered and paid",
  "DELIVERED NOT PAID": "delivered, not yet paid",
  CLOSED: "closed",
};

/**
 * A ticket state as people say it, never its code: "PICKED UP" → "picked up", a locality
 * delivery state "Mosta" → "out for delivery in Mosta", a state an admin added in capitals →
 * its words in lower case. "" when the state has no name (the spec's empty state): the
 * message then cannot name it (see NEUTRAL_TEMPLATE).
 */
export function stateSaying(state: string, isLocalityDelivery = false): string {
  const name = state.trim().replace(/\s+/g, " ");
  if (!name) return "";
  if (isLocalityDelivery) return `out for delivery in ${name}`;
  const known = SAYING[name.toUpperCase()];
  if (known) return known;
  return name === name.toUpperCase() ? name.toLowerCase() : name;
}

/** What a state says until an admin writes its own text. */
export function defaultTemplate(state: string): string {
  switch (state) {
    case "":
      return NEUTRAL_TEMPLATE;
    case "AWAITING PICKUP":
      return "Dear {customer_name}, {shop_name} will pick up your items for ticket {ticket_id}. Questions: {shop_phone}.";
    case "AWAITING DELIVERY":
      return "Dear {customer_name}, ticket {ticket_id} at {shop_name} is ready. Delivery: {delivery_date}. Amount due: {amount_due}. {shop_phone}";
    case "OUT FOR DELIVERY":
      return "Dear {customer_name}, ticket {ticket_id} is on its way to you today. Amount due: {amount_due}. {shop_name} {shop_phone}";
    case "DELIVERED":
    case "DELIVERED AND PAID":
    case "DELIVERED NOT PAID":
    case "CLOSED":
      return "Dear {customer_name}, thank you for choosing {shop_name}. Ticket {ticket_id}: {state}. Amount due: {amount_due}.";
    default:
      return "Dear {customer_name}, your ticket {ticket_id} at {shop_name} is now {state}. Amount due: {amount_due}. Call us on {shop_phone}.";
  }
}
