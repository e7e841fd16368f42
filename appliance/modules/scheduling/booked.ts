/**
 * What a booked stop is, shared by the counts and the lists: confirmed tickets to collect from
 * or deliver to the client, the address aliases their joins use, and the caller's shop scope.
 */
import { and, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { addresses, localities, streets, tickets } from "../../../db/schema";
import { type AgentCaller, agentScope } from "../auth/caller";

/** A driver's stops and ticket lists are at most this long, whatever `limit` asks (spec §9's 9999999999 means "all"). */
export const LIST_CAP = 5000;
/** A ticket's pickup happens at its pickup address, else the customer's; likewise its delivery. */
export const pickupAddr = alias(addresses, "pickup_addr");
export const deliveryAddr = alias(addresses, "delivery_addr");
export const homeAddr = alias(addresses, "home_addr");
export const pickupStreet = alias(streets, "pickup_street");
export const deliveryStreet = alias(streets, "delivery_street");
export const homeStreet = alias(streets, "home_street");
export const pickupLoc = alias(localities, "pickup_loc");
export const deliveryLoc = alias(localities, "delivery_loc");
export const homeLoc = alias(localities, "home_loc");

/**
 * Booked stops: confirmed tickets to collect from or deliver to the client (drafts hold no
 * room). The flags are written as literals, as in the partial indexes of migration 0007: a
 * bound parameter would keep SQLite from using them.
 */
export const isPickupOn = (from: string, to: string) =>
  and(sql`${tickets.pickup_from_client} = 1 AND ${tickets.confirmed_at} IS NOT NULL`, gte(tickets.pickup_date, from), lte(tickets.pickup_date, to));
export const isDeliveryOn = (from: string, to: string) =>
  and(sql`${tickets.delivery_to_client} = 1 AND ${tickets.confirmed_at} IS NOT NULL`, gte(tickets.delivery_date, from), lte(tickets.delivery_date, to));
export const scoped = (caller: AgentCaller): SQL | undefined => {
  const s = agentScope(caller);
  return s ? inArray(tickets.agent_id, s) : undefined;
};
