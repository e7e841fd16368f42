// What the old system answers for each record kind (spec §3, the shapes Ironbox answers),
// checked field by field and mapped to this box's rows: euros to integer cents, percentages
// to hundredths. A record that does not pass is refused with the first field that failed;
// nothing of it is written.
import { z } from "zod";
import { isWholeCents, toCents } from "../../domain/money";
import { MAX_LINE_CENTS, MAX_PERCENT_HUNDREDTHS, MAX_TICKET_CENTS } from "../../domain/pricing";

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const ref = id
  .nullable()
  .optional()
  .transform((v) => v ?? null);
/** Bounded text: a 50 MB name is refused, not stored. */
const str = (max: number) => z.string().max(max, { message: `longer than ${max} characters` });
const optStr = (max: number) =>
  str(max)
    .nullable()
    .optional()
    .transform((v) => v ?? "");
const nullStr = (max: number) =>
  str(max)
    .nullable()
    .optional()
    .transform((v) => v ?? null);
const bool = z
  .boolean()
  .optional()
  .transform((v) => v ?? false);
const iso = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}/, "not a date");
const optIso = iso
  .nullable()
  .optional()
  .transform((v) => v ?? null);
const discountText = z
  .string()
  .max(40)
  .regex(/^PERCENTAGE -?\d+(\.\d+)?$/, 'not "PERCENTAGE n"');
const discount = discountText.optional().transform((v) => v ?? "PERCENTAGE 0");

/** Euros with at most two decimals, within a cap, as integer cents. */
const euros = (capCents: number) =>
  z
    .number()
    .finite()
    .min(0, "negative amount")
    .refine(isWholeCents, "more than two decimals")
    .transform(toCents)
    .refine((c) => c <= capCents, `absurd amount (over €${(capCents / 100).toLocaleString("en")})`);
/** An up-charge or price: euros when flat, a percentage when it is a percentage of another; hundredths either way. */
const hundredths = euros(Math.max(MAX_LINE_CENTS, MAX_PERCENT_HUNDREDTHS));

export const Locality = z.object({ id, name: str(100).min(1) });
export const Street = z.object({ id, locality_id: id, name: str(200).min(1) });
export const Address = z.object({ id, name: optStr(200), number: optStr(50), locality_id: id, street_id: id });
export const Preference = z.object({ id, name: str(100).min(1) });

export const Agent = z.object({
  id,
  name: str(200).min(1),
  type: optStr(40).transform((v) => v || "SHOP"),
  user_name: str(100).min(1),
  landline: optStr(50),
  mobile: optStr(50),
  address_id: ref,
  commission: z.number().int().min(0).max(100).optional().default(0),
  contact_person: optStr(200),
  email_address: optStr(200),
  queens: bool,
  detail: nullStr(2000),
  can_see_action: nullStr(2000),
  is_hq: bool,
  enabled: z.boolean().optional().default(true),
});

export const Employee = z.object({
  id,
  agent_id: id,
  full_name: str(200).min(1),
  mobile: optStr(50),
  landline: optStr(50),
  role: z.enum(["admin", "manager", "employee", "driver"]),
  accumulated: euros(MAX_TICKET_CENTS).optional().default(0),
  pending: euros(MAX_TICKET_CENTS).optional().default(0),
  enable_login: z.boolean().optional().default(true),
  hq: bool,
  localities: optStr(2000).refine((v) => /^[\d,\s]*$/.test(v), "localities: not a list of ids"),
});

export const Customer = z.object({
  id,
  agent_id: id,
  title: optStr(20),
  full_name: str(200).min(1),
  first_name: optStr(200),
  last_name: optStr(200),
  address_id: ref,
  mobile: optStr(50),
  landline: optStr(50),
  email_address: optStr(200),
  date_of_birth: optIso,
  id_card: optStr(50),
  discount: z.number().min(0).max(100).optional().default(0).transform(Math.round),
  occupation: optStr(200),
  comments: optStr(2000),
  no_messages: bool,
  created_at: iso.optional(),
  /** Added by the importer from GET /customerPreferences/customers/{id}. */
  preferences: z.array(id).max(100).default([]),
});

export const Action = z.object({
  id,
  name: str(200).min(1),
  image: nullStr(500),
  visible: z.boolean().optional().default(true),
  is_percentage_of: ref,
  up_charge: hundredths,
  images_required: bool,
  discount,
});

export const Garment = z.object({
  id,
  garment_category_id: id,
  name: str(200).min(1),
  visible: z.boolean().optional().default(true),
  image: nullStr(500),
  discount,
  pieces: optStr(500),
  images_required: bool,
  show_choose_pieces: bool,
  order: z.number().int().optional().default(0),
  allow_quantity: bool,
});

export const Category = z.object({
  id,
  type: str(40).min(1),
  name: str(200).min(1),
  visible: z.boolean().optional().default(true),
  image: nullStr(500),
  order: z.number().int().optional().default(0),
  default_action_id: ref,
});

export const Price = z.object({
  id,
  garment_sub_category_id: id,
  action_id: id,
  price: hundredths,
  discount: nullStr(40),
  is_percentage_of: ref,
});

export const Modifier = z.object({
  id,
  parent_id: z.number().int().min(0).optional().default(0),
  type: z.enum(["COLOR", "DESIGN", "MATERIAL", "STAIN", "BRAND", "TAILOR", "EXPRESS"]),
  name: str(200).min(1),
  image: nullStr(500),
  discount,
  visible: z.boolean().optional().default(true),
  up_charge: hundredths,
  order: z.number().int().optional().default(0),
  is_percentage: bool,
});

export const TicketState = z.object({
  id,
  name: str(60),
  position: z.number().int(),
  is_locality_delivery: bool,
  prices_on_receipt: z.boolean().optional().default(true),
  hidden_in_lists: bool,
});

export const Configuration = z.object({
  id,
  month: str(20).min(1),
  action_id: id,
  amounts: str(200).regex(/^\d+(,\d+){6}$/, "amounts: not seven numbers"),
});

export const PickupDelivery = z.object({
  id,
  season: z.enum(["PEAK", "OFFSEASON"]),
  from: nullStr(10),
  to: nullStr(10),
  day_of_week: z.number().int().min(0).max(6),
  quantity: z.number().int().min(0).max(100_000),
  localities: optStr(2000).refine((v) => /^[\d;,\s]*$/.test(v), "localities: not a list of ids"),
});

const ItemAction = z.object({
  id,
  actionID: id,
  name: optStr(200),
  quantity: z.number().int().min(1).max(10_000).optional().default(1),
  price: euros(MAX_LINE_CENTS),
  images: z.array(z.number()).max(50).optional().default([]),
});
const ItemModifier = z.object({ id, modifier_id: id, modifier_type: str(20) });
const LogState = z.object({
  id,
  state: str(60),
  logged_at: iso,
  log: optStr(2000),
  employee_id: ref,
});

export const Item = z.object({
  id,
  garment_sub_category_id: id,
  description: optStr(200),
  discount,
  quantity: z.number().int().min(1).max(10_000).optional().default(1),
  state: str(60),
  comments: optStr(2000),
  location: optStr(200),
  pieces: optStr(500),
  sorted_items: optStr(500),
  sorted: bool,
  has_express: bool,
  detail: nullStr(2000),
  total: euros(MAX_LINE_CENTS),
  pre_discount_total: euros(MAX_LINE_CENTS),
  total_override: euros(MAX_LINE_CENTS)
    .nullable()
    .optional()
    .transform((v) => v ?? null),
  total_paid: euros(MAX_LINE_CENTS),
  process_date: optIso,
  created_at: iso.optional(),
  actions: z.array(ItemAction).max(50).default([]),
  modifiers: z.array(ItemModifier).max(100).default([]),
  log_states: z.array(LogState).max(1000).default([]),
});

export const TicketLog = LogState.extend({
  agent_id: ref,
  /** A drawn signature (data URL); bounded like the API's own. */
  signature: z
    .string()
    .max(2_000_000)
    .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/, "signature: not an image data URL")
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});

export const Ticket = z.object({
  id,
  agent_id: id,
  employee_id: id,
  customer_id: id,
  pickup_date: optIso,
  delivery_date: optIso,
  pickup_comment: optStr(500),
  delivery_comment: optStr(500),
  delivery_to_client: bool,
  pickup_from_client: bool,
  has_express_item: bool,
  state: z.string().max(60),
  total: euros(MAX_TICKET_CENTS),
  total_paid: euros(MAX_TICKET_CENTS),
  delivery_charge: euros(MAX_LINE_CENTS),
  pickup_charge: euros(MAX_LINE_CENTS),
  delivery_address_id: ref,
  pickup_address_id: ref,
  confirmed_at: optIso,
  discount,
  created_at: iso.optional(),
  ticket_sub_categories: z.array(Item).max(500),
  ticket_log_states: z.array(TicketLog).max(5000).default([]),
});

export type Locality = z.output<typeof Locality>;
export type Street = z.output<typeof Street>;
export type Address = z.output<typeof Address>;
export type Preference = z.output<typeof Preference>;
export type Agent = z.output<typeof Agent>;
export type Employee = z.output<typeof Employee>;
export type Customer = z.output<typeof Customer>;
export type Action = z.output<typeof Action>;
export type Category = z.output<typeof Category>;
export type Garment = z.output<typeof Garment>;
export type Price = z.output<typeof Price>;
export type Modifier = z.output<typeof Modifier>;
export type TicketState = z.output<typeof TicketState>;
export type Configuration = z.output<typeof Configuration>;
export type PickupDelivery = z.output<typeof PickupDelivery>;
export type Item = z.output<typeof Item>;
export type Ticket = z.output<typeof Ticket>;

/** The first problem of a record, in words, never echoing the value (it may be 50 MB). */
export function firstProblem(e: z.ZodError): string {
  const i = e.issues[0]!;
  const path = i.path.join(".");
  return `${path || "record"}: ${i.message}`.slice(0, 300);
}

/** A stable fingerprint of a record, for "new or changed since the last run". */
export function fingerprint(record: unknown): string {
  return new Bun.CryptoHasher("sha256").update(JSON.stringify(record)).digest("base64url");
}
