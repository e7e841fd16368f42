// Ticket status message templates (issue 14): the placeholders an admin may use, the default
// text of a state, and the one renderer the outbox and the editor's preview share. Pure: the
// UI imports these values too.

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

/** What a state says until an admin writes its own text. */
export function defaultTemplate(state: string): string {
  switch (state) {
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
