// The customers module's contract with the UI: a customer as it is sent and answered (money in euros).
import { z } from "zod";
import { TITLES } from "../../domain/people";
import { IsoDate, text } from "../../domain/schemas";
import { Approval } from "../approval/model";
import { Address, AddressBody } from "../places/model";

const digits = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(/^\+?[0-9 ]*$/, "must be digits");
const PreferenceIds = z.array(z.number().int().positive()).max(200);

/** The customer's own fields (spec §3). */
export const CustomerFields = z.object({
  title: z.union([z.enum(TITLES), z.literal("")]).optional(),
  full_name: text(120).min(1),
  address_id: z.number().int().positive().nullish(),
  mobile: digits(20).optional(),
  landline: digits(20).optional(),
  email_address: z.union([z.literal(""), z.email().max(200)]).optional(),
  date_of_birth: IsoDate.nullish(),
  id_card: text(30).optional(),
  discount: z.number().int().min(0).max(100).optional(),
  occupation: text(100).optional(),
  comments: text(2000).optional(),
  /** The customer asked for no messages: bulk sends skip them (issue 14). */
  no_messages: z.boolean().optional(),
  agent_id: z.number().int().positive().optional(),
});
export type CustomerInput = z.infer<typeof CustomerFields>;

/**
 * What POST and PUT /customers/ take: the customer's fields and, saved with it in one
 * transaction, optionally its home `address` (creates one, or updates the one it has) and
 * its `preferences` (the whole set of preference ids).
 */
export const CustomerBody = CustomerFields.extend({
  address: AddressBody.optional(),
  preferences: PreferenceIds.optional(),
  /** A manager's PIN when an employee or driver sets a discount above the limit. */
  approval: Approval.optional(),
});
export type CustomerSave = z.input<typeof CustomerBody>;
/** What the service saves: the body without the approval (which travels apart). */
export type CustomerSaveInput = Omit<z.infer<typeof CustomerBody>, "approval">;

export const CustomerListQuery = z.object({
  term: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  mobile: z.string().max(100).optional(),
  landline: z.string().max(100).optional(),
  id_card: z.string().max(100).optional(),
  email_address: z.string().max(200).optional(),
});
export const DateParams = z.object({ date: IsoDate });
export const CustomerQuery = z.object({ simple: z.enum(["true", "false"]).optional() });
export const PreferencesBulkBody = z.object({ customer_id: z.number().int().positive(), preferences: PreferenceIds });
export const CustomerPreference = z.object({ customer_id: z.number(), preference_id: z.number() });

/** A customer as lists answer it. */
export const Customer = z.object({
  id: z.number(),
  agent_id: z.number(),
  title: z.string(),
  full_name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  address_id: z.number().nullable(),
  mobile: z.string(),
  landline: z.string(),
  email_address: z.string(),
  date_of_birth: z.string().nullable(),
  id_card: z.string(),
  discount: z.number(),
  occupation: z.string(),
  comments: z.string(),
  no_messages: z.boolean(),
  created_at: z.string(),
});
export type Customer = z.infer<typeof Customer>;
/** A row of the plain list (newest first): the customer with its preference ids. */
export const CustomerListRow = Customer.extend({ preferences: z.array(z.number()) });

/** One of the customer's last tickets (?simple=true), money in euros. */
export const SimpleTicket = z.object({
  id: z.number(),
  state: z.string(),
  pickup_date: z.string().nullable(),
  delivery_date: z.string().nullable(),
  total: z.number(),
  total_paid: z.number(),
  confirmed_at: z.string().nullable(),
  agent_name: z.string(),
});
export type SimpleTicket = z.infer<typeof SimpleTicket>;

/** A row of the customer's ticket list (spec §2 Customers: with the agent), money in euros. */
export const CustomerTicket = SimpleTicket.extend({ agent_id: z.number(), balance: z.number() });
export type CustomerTicket = z.infer<typeof CustomerTicket>;

/**
 * One customer: its address (null when none or another shop's), preference ids, the ticket
 * total for every role, the other statistics for admins (spec §6), and with ?simple=true its
 * last 10 tickets. Ranks are 1-based; -1 shows N/A.
 */
export const CustomerDetail = Customer.extend({
  address: Address.nullable(),
  preferences: z.array(z.number()),
  ticket_total: z.number(),
  number_of_visits: z.number().optional(),
  total_spent: z.number().optional(),
  last_visit: z.string().nullable().optional(),
  outstanding_balance: z.number().optional(),
  turnover_rank: z.number().optional(),
  visit_rank: z.number().optional(),
  simple_tickets: z.array(SimpleTicket).optional(),
});
export type CustomerDetail = z.infer<typeof CustomerDetail>;
