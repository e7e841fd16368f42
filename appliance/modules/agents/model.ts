// The agents module's contract with the UI: an agent (shop) as it is sent and answered.
import { z } from "zod";
import { text } from "../../domain/schemas";
import { Address, AddressBody } from "../places/model";

const Email = z.union([z.literal(""), z.email().max(200)]);

export const AgentBody = z.object({
  name: text(100).min(1),
  type: text(30).optional(),
  user_name: text(100).min(1),
  landline: text(30).optional(),
  mobile: text(30).optional(),
  commission: z.number().int().min(0).max(100).optional(),
  contact_person: text(100).optional(),
  email_address: Email.optional(),
  queens: z.boolean().optional(),
  detail: text(1000).nullish(),
  // Spec §6 can_see_action: action ids separated by commas (';' and spaces read too; README).
  // Anything else (names, a typo) would silently leave the shop fewer actions than meant.
  can_see_action: text(1000)
    .regex(/^[\d\s,;]*$/, "action ids separated by commas, e.g. 1,2,5")
    .nullish(),
  enabled: z.boolean().optional(),
  address: AddressBody.nullish(),
});
export type AgentInput = z.infer<typeof AgentBody>;

export const PasswordBody = z.object({ email_address: Email.optional(), password: z.string().min(8).max(200) });
export type PasswordInput = z.infer<typeof PasswordBody>;

/** An agent as the API answers it: never the password hash, only whether one is set. */
export const Agent = z.object({
  id: z.number(),
  name: z.string(),
  type: z.string(),
  user_name: z.string(),
  landline: z.string(),
  mobile: z.string(),
  address_id: z.number().nullable(),
  is_hq: z.boolean(),
  commission: z.number(),
  contact_person: z.string(),
  email_address: z.string(),
  queens: z.boolean(),
  detail: z.string().nullable(),
  can_see_action: z.string().nullable(),
  enabled: z.boolean(),
  /** When the agent was archived (deleted with records), or null. */
  archived_at: z.string().nullable(),
  password_set: z.boolean(),
});
export type Agent = z.infer<typeof Agent>;
/** A row of the agents list: with its locality's name. */
export const AgentListRow = Agent.extend({ locality: z.string().nullable() });
export type AgentListRow = z.infer<typeof AgentListRow>;
/** One agent: with its address (null when it has none). */
export const AgentDetail = Agent.extend({ address: Address.nullable() });
export type AgentDetail = z.infer<typeof AgentDetail>;
