// The tickets module's contract with the UI: the bodies its routes take and the shapes they
// answer (amounts in euros: the routes convert the services' cents with the mappers below).
// The UI imports these types (type-only) from here, never from the services.
import { z } from "zod";
import { toEuros } from "../../domain/money";
import { Discount, eurosUpTo, IsoDate, text } from "../../domain/schemas";
import { WithApproval } from "../approval/model";
import { Address } from "../places/model";

// ---- request bodies

/** A money amount a client sends, in euros to the cent (a fraction of a cent is a 422). */
const money = eurosUpTo(1_000_000);

/**
 * Spec §4: a state set on tickets or items, with one optional drawn signature (a data URL).
 * The signature is capped by the service (413 above SIGNATURE_MAX_CHARS, tickets/signatures.ts);
 * the schema only bounds it by the request body limit, so every oversized one gets that 413.
 */
export const StateChange = z.object({
  Ids: z.array(z.number().int().positive()).min(1).max(2000),
  State: z.string().max(60),
  Signature: z
    .string()
    .max(16 * 1024 * 1024)
    .nullish(),
});
export type StateChange = z.infer<typeof StateChange>;

export const TicketBody = z.object({
  customer_id: z.number().int().positive(),
  pickup_date: IsoDate.nullish(),
  delivery_date: IsoDate.nullish(),
  pickup_comment: text(500).optional(),
  delivery_comment: text(500).optional(),
  pickup_from_client: z.boolean().optional(),
  delivery_to_client: z.boolean().optional(),
  pickup_address_id: z.number().int().positive().nullish(),
  delivery_address_id: z.number().int().positive().nullish(),
  /** Euros. */
  pickup_charge: money.optional(),
  /** Euros. */
  delivery_charge: money.optional(),
});
export type TicketBody = z.infer<typeof TicketBody>;

/**
 * The counter's pickup and delivery options (PUT /tickets/{id}/deliveryPickupOptions, body):
 * the spec's query (date, delivery, pickup, pickupComment, deliveryComment) plus the days,
 * addresses (null: the customer's home) and charges. Only the fields sent change.
 */
export const TicketOptions = z.object({
  pickup_from_client: z.boolean().optional(),
  delivery_to_client: z.boolean().optional(),
  pickup_date: IsoDate.nullish(),
  delivery_date: IsoDate.nullish(),
  pickup_comment: text(500).optional(),
  delivery_comment: text(500).optional(),
  pickup_address_id: z.number().int().positive().nullish(),
  delivery_address_id: z.number().int().positive().nullish(),
  /** Euros. */
  pickup_charge: money.optional(),
  /** Euros. */
  delivery_charge: money.optional(),
});
export type TicketOptions = z.infer<typeof TicketOptions>;
export const TicketOptionsBody = TicketOptions.extend(WithApproval.shape);

export const ItemBody = z.object({
  ticket_id: z.number().int().positive(),
  garment_sub_category_id: z.number().int().positive(),
  description: text(200).optional(),
  pieces: z.string().max(500).optional(),
  quantity: z.number().int().min(1).max(10_000).optional(),
  comments: text(1000).optional(),
  location: text(100).optional(),
  detail: text(1000).nullish(),
  /** Action ids to add; without them the category's default action is added. */
  actions: z.array(z.number().int().positive()).max(20).optional(),
  modifiers: z.array(z.number().int().positive()).max(50).optional(),
});
export type ItemBody = z.infer<typeof ItemBody>;

/** An item's changes; the route adds the manager's approval (approval module). */
export const ItemUpdate = z.object({
  description: text(200).optional(),
  pieces: z.string().max(500).optional(),
  quantity: z.number().int().min(1).max(10_000).optional(),
  comments: text(1000).optional(),
  location: text(100).optional(),
  detail: text(1000).nullish(),
  /** A number or text such as "PERCENTAGE 12.5"; stored as "PERCENTAGE n" (domain/money). */
  discount: Discount.optional(),
  /** Euros; null removes the override. */
  total_override: money.nullable().optional(),
});
export type ItemUpdate = z.infer<typeof ItemUpdate>;

export const ItemActionBody = z
  .object({
    ticket_sub_category_id: z.number().int().positive(),
    action_id: z.number().int().positive().optional(),
    /** The spec's older name for action_id. */
    actionID: z.number().int().positive().optional(),
    quantity: z.number().int().min(1).max(1000).optional(),
    images: z.array(z.number().int().positive()).max(20).optional(),
    override_images: z.boolean().optional(),
  })
  .refine((b) => b.action_id ?? b.actionID, { message: "action_id: is required", path: ["action_id"] });
export type ItemActionBody = z.infer<typeof ItemActionBody>;

export const ItemModifierBody = z.object({ ticket_sub_category_id: z.number().int().positive(), modifier_id: z.number().int().positive() });
export type ItemModifierBody = z.infer<typeof ItemModifierBody>;

// ---- answers (euros)

/** Every column of a ticket, amounts in euros, and what is left to pay. */
export const TicketSummary = z.object({
  id: z.number(),
  agent_id: z.number(),
  employee_id: z.number(),
  customer_id: z.number(),
  pickup_date: z.string().nullable(),
  delivery_date: z.string().nullable(),
  pickup_comment: z.string(),
  delivery_comment: z.string(),
  delivery_to_client: z.boolean(),
  pickup_from_client: z.boolean(),
  has_express_item: z.boolean(),
  state: z.string(),
  total: z.number(),
  total_paid: z.number(),
  balance: z.number(),
  delivery_charge: z.number(),
  pickup_charge: z.number(),
  delivery_address_id: z.number().nullable(),
  pickup_address_id: z.number().nullable(),
  confirmed_at: z.string().nullable(),
  /** "PERCENTAGE n". */
  discount: z.string(),
  created_at: z.string(),
});
export type TicketSummary = z.infer<typeof TicketSummary>;

/** An action on an item: its price is the snapshot taken when it was added (euros). */
export const ItemAction = z.object({
  id: z.number(),
  ticket_sub_category_id: z.number(),
  actionID: z.number(),
  quantity: z.number(),
  price: z.number(),
  images: z.array(z.number()),
  name: z.string(),
});
export type ItemAction = z.infer<typeof ItemAction>;

export const ItemModifier = z.object({
  id: z.number(),
  ticket_sub_category_id: z.number(),
  modifier_id: z.number(),
  modifier_type: z.string(),
  name: z.string(),
  image: z.string().nullable(),
});
export type ItemModifier = z.infer<typeof ItemModifier>;

export const ItemLogState = z.object({
  id: z.number(),
  ticket_sub_category_id: z.number(),
  state: z.string(),
  logged_at: z.string(),
  log: z.string(),
  employee_id: z.number().nullable(),
  signature_id: z.number().nullable(),
});
export type ItemLogState = z.infer<typeof ItemLogState>;

/** The item's garment, as the item editor needs it. */
export const ItemGarment = z.object({
  id: z.number(),
  name: z.string(),
  pieces: z.string(),
  allow_quantity: z.boolean(),
  show_choose_pieces: z.boolean(),
  images_required: z.boolean(),
  category: z.string(),
  category_type: z.string(),
});
export type ItemGarment = z.infer<typeof ItemGarment>;

/** One garment line of a ticket (spec §3 TicketSubCategory), amounts in euros. */
export const Item = z.object({
  id: z.number(),
  ticket_id: z.number(),
  garment_sub_category_id: z.number(),
  description: z.string(),
  /** "PERCENTAGE n". */
  discount: z.string(),
  quantity: z.number(),
  state: z.string(),
  comments: z.string(),
  location: z.string(),
  /** Comma-separated. */
  pieces: z.string(),
  /** Comma-separated pieces already sorted. */
  sorted_items: z.string(),
  sorted: z.boolean(),
  has_express: z.boolean(),
  detail: z.string().nullable(),
  total: z.number(),
  pre_discount_total: z.number(),
  /** Replaces total in what is owed when present. */
  total_override: z.number().nullable(),
  total_paid: z.number(),
  balance: z.number(),
  process_date: z.string().nullable(),
  created_at: z.string(),
  sub_category: ItemGarment.nullable(),
  actions: z.array(ItemAction),
  modifiers: z.array(ItemModifier),
  log_states: z.array(ItemLogState),
  /** URLs of the photos taken for the item's actions. */
  image_urls: z.array(z.string()),
});
export type Item = z.infer<typeof Item>;

/** A line of a ticket's state history (spec §3), newest first, with names and the signature. */
export const TicketLog = z.object({
  id: z.number(),
  ticket_id: z.number(),
  state: z.string(),
  logged_at: z.string(),
  log: z.string(),
  employee_id: z.number().nullable(),
  agent_id: z.number().nullable(),
  signature_id: z.number().nullable(),
  agent: z.string().nullable(),
  employee: z.string().nullable(),
  /** The drawn signature as a data URL. */
  signature: z.string().nullable(),
});
export type TicketLog = z.infer<typeof TicketLog>;

/** The ticket's customer; `address` is their home when the caller's shop may see it (else null). */
export const TicketCustomer = z.object({
  id: z.number(),
  full_name: z.string(),
  mobile: z.string(),
  landline: z.string(),
  address_id: z.number().nullable(),
  discount: z.number(),
  address: Address.nullable(),
});
export type TicketCustomer = z.infer<typeof TicketCustomer>;

/**
 * One ticket (spec §3 Ticket) with its items, its state history and the names of its actions.
 * The pickup and delivery addresses are the ones the van goes to: the ticket's own, else the
 * customer's home; null when there is none or it is another shop's.
 */
export const Ticket = TicketSummary.extend({
  agent: z.string(),
  employee: z.string(),
  customer: TicketCustomer,
  pickup_address: Address.nullable(),
  delivery_address: Address.nullable(),
  ticket_sub_categories: z.array(Item),
  ticket_log_states: z.array(TicketLog),
  actions: z.array(z.string()),
});
export type Ticket = z.infer<typeof Ticket>;

/** A row of the ticket list: the ticket, its customer's name and phone, with withChildren its items and state history. */
export const TicketListRow = TicketSummary.extend({
  customer: z.object({ full_name: z.string(), mobile: z.string() }),
  ticket_sub_categories: z.array(Item).optional(),
  ticket_log_states: z.array(TicketLog).optional(),
});
export type TicketListRow = z.infer<typeof TicketListRow>;

/** A ticket state (data, spec §4), in its order. */
export const TicketState = z.object({
  id: z.number(),
  name: z.string(),
  position: z.number(),
  is_locality_delivery: z.boolean(),
  prices_on_receipt: z.boolean(),
  hidden_in_lists: z.boolean(),
});
export type TicketState = z.infer<typeof TicketState>;

export const StateChangeResult = z.object({ success: z.literal(true), count: z.number() });
export type StateChangeResult = z.infer<typeof StateChangeResult>;

/** Spec §2 Express: an express item not yet delivered and the day it is due. */
export const ExpressItem = z.object({
  id: z.number(),
  ticket_id: z.number(),
  description: z.string(),
  pickup_date: z.string().nullable(),
  express: z.string(),
  due_date: z.string().nullable(),
});
export type ExpressItem = z.infer<typeof ExpressItem>;

// ---- cents → euros, for the routes

// The services hold these same shapes with every amount in integer cents; the routes answer
// them through these mappers, so euros appear only at the route edge.

export const itemOut = (i: Item): Item => ({
  ...i,
  total: toEuros(i.total),
  pre_discount_total: toEuros(i.pre_discount_total),
  total_override: i.total_override == null ? null : toEuros(i.total_override),
  total_paid: toEuros(i.total_paid),
  balance: toEuros(i.balance),
  actions: i.actions.map((a) => ({ ...a, price: toEuros(a.price) })),
});

export const summaryOut = <T extends TicketSummary>(t: T): T => ({
  ...t,
  total: toEuros(t.total),
  total_paid: toEuros(t.total_paid),
  balance: toEuros(t.balance),
  pickup_charge: toEuros(t.pickup_charge),
  delivery_charge: toEuros(t.delivery_charge),
});

export const ticketOut = (t: Ticket): Ticket => ({ ...summaryOut(t), ticket_sub_categories: t.ticket_sub_categories.map(itemOut) });

export const listRowOut = (r: TicketListRow): TicketListRow => ({
  ...summaryOut(r),
  ...(r.ticket_sub_categories ? { ticket_sub_categories: r.ticket_sub_categories.map(itemOut) } : {}),
});
