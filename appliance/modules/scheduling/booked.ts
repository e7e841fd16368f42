/**
 * What a booked stop is, shared by the counts and the lists: a confirmed ticket to collect
 * from or deliver to the client (tickets/stopReads.ts reads them), at the ticket's own pickup
 * or delivery address, else at the customer's home.
 */
import type { AgentCaller } from "../auth/caller";
import { agentScope } from "../auth/caller";
import type { StopQuery } from "../tickets/stopReads";

/** A driver's stops and ticket lists are at most this long, whatever `limit` asks (spec §9's 9999999999 means "all"). */
export const LIST_CAP = 5000;

/** The stops of some kinds on one day, of the caller's shop (HQ: every shop's). */
export function dayStops(day: string, type: "pickups" | "deliveries" | undefined, caller: AgentCaller | null): StopQuery {
  const kinds = [...(type !== "deliveries" ? (["pickup"] as const) : []), ...(type !== "pickups" ? (["delivery"] as const) : [])];
  return { from: day, to: day, kinds, agentIds: caller ? agentScope(caller) : null };
}

/** The address a stop is at: the ticket's own, else the customer's home (null: neither). */
export const stopAddress = (own: number | null, home: number | null | undefined): number | null => own ?? home ?? null;

export const notNull = <T>(v: T | null | undefined): v is T => v != null;
