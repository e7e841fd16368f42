// The tracking module's contract with the UI: what its routes take and answer (amounts in
// euros; the routes convert the service's cents). The UI imports these types type-only.
import { z } from "zod";
import { toEuros } from "../../domain/money";
import { cleanLocation, LOCATION_MAX, LOCATION_PATTERN } from "../../domain/racks";
import { text } from "../../domain/schemas";
import { Item, itemOut } from "../tickets/model";

export { TicketState } from "../tickets/model";

/** A locality delivery state's name (spec §4: B Kara, Mosta, San Gwann…). */
export const StateName = z.object({ name: text(60).min(1) });
export type StateName = z.infer<typeof StateName>;

/** Spec §3 "Tracking scan item": what a scanned code names. */
export const ScanItem = z.object({
  type: z.enum(["ticket", "item", "multipleItems"]),
  TicketID: z.number().optional(),
  ItemID: z.number().optional(),
  ItemIDS: z.array(z.number()).optional(),
  Agent: z.string().optional(),
  Date: z.string().optional(),
  Customer: z.string().optional(),
  Desc: z.string().optional(),
  Piece: z.string().optional(),
  Price: z.number().optional(),
});
export type ScanItem = z.infer<typeof ScanItem>;

/** An item on the tracking list: the item with its ticket's customer and shop. */
export const TrackedItem = Item.extend({ customer_name: z.string(), agent_name: z.string() });
export type TrackedItem = z.infer<typeof TrackedItem>;

export const ScanAnswer = z.object({ scan: ScanItem, items: z.array(TrackedItem) });
export type ScanAnswer = z.infer<typeof ScanAnswer>;

/**
 * `/tracking?type=desc` (spec §2): items found by their description instead of a code, for a
 * label that will not scan. At least 2 characters, any case; the caller's shop's items (HQ:
 * all) not yet delivered or closed, newest first, at most DESC_SEARCH_LIMIT.
 */
export const DescSearchQuery = z.object({ desc: z.string().trim().min(2).max(100) });
export const DESC_SEARCH_LIMIT = 50;

/** Spec §2 State Logs: one item state change; total is what the item owes (euros). */
export const JourneyRow = z.object({
  ticket_id: z.number(),
  garment_id: z.number(),
  employee: z.string().nullable(),
  agent: z.string(),
  state: z.string(),
  date: z.string(),
  description: z.string(),
  total: z.number(),
});
export type JourneyRow = z.infer<typeof JourneyRow>;

/** The state logs; the grand total counts each garment once; truncated past 2000 rows. */
export const Journey = z.object({ data: z.array(JourneyRow), grand_total: z.number(), truncated: z.boolean() });
export type Journey = z.infer<typeof Journey>;

// ---- cents → euros, for the routes

export const trackedOut = (i: TrackedItem): TrackedItem => ({ ...itemOut(i), customer_name: i.customer_name, agent_name: i.agent_name });
export const scanOut = (a: ScanAnswer): ScanAnswer => ({ ...a, items: a.items.map(trackedOut) });

export const journeyOut = (j: Journey): Journey => ({
  ...j,
  data: j.data.map((r) => ({ ...r, total: toEuros(r.total) })),
  grand_total: toEuros(j.grand_total),
});

// ---- where is it (issue 25): racks and the unclaimed list

/** A rack or slot name: bounded, one line; "" takes items off their rack. Printing's rack labels take the same. */
export const Location = z
  .string()
  .trim()
  .max(LOCATION_MAX, `location: at most ${LOCATION_MAX} characters`)
  .regex(LOCATION_PATTERN, "location: one line of text")
  .transform(cleanLocation);

/** PUT /ticketSubCategory/location: items by id and/or whole tickets, all the caller's shop's, onto one location. */
export const LocationBody = z
  .object({
    Ids: z.array(z.number().int().positive()).max(500).default([]),
    ticket_ids: z.array(z.number().int().positive()).max(50).default([]),
    location: Location,
  })
  .refine((b) => b.Ids.length + b.ticket_ids.length > 0, "Ids: choose the items or tickets to put there");
export type LocationBody = z.infer<typeof LocationBody>;

export const PlacedItem = z.object({ id: z.number(), ticket_id: z.number(), location: z.string() });
export const LocationResult = z.object({ items: z.array(PlacedItem) });
export type LocationResult = z.infer<typeof LocationResult>;

/** GET /tickets/locations?ids=1,2: where each ticket's items are (distinct non-empty locations). */
export const TicketLocationsQuery = z.object({
  ids: z
    .string()
    .max(1100)
    .regex(/^\d{1,12}(,\d{1,12})*$/, "ids: ticket numbers separated by commas")
    .transform((s) => [...new Set(s.split(",").map(Number))])
    .refine((a) => a.length <= 100, "ids: at most 100 tickets"),
});
export const TicketLocations = z.object({ ticket_id: z.number(), locations: z.array(z.string()) });
export type TicketLocations = z.infer<typeof TicketLocations>;

/** GET /ticketSubCategory/unclaimed?days=30: ready items not collected for more than that many days. */
export const UnclaimedQuery = z.object({ days: z.coerce.number().int().min(1).max(3650).default(30) });
export const UNCLAIMED_LIMIT = 500;
export const UnclaimedItem = z.object({
  id: z.number(),
  ticket_id: z.number(),
  description: z.string(),
  location: z.string(),
  ready_since: z.string(),
  days: z.number(),
  /** What is still owed on the item, euros. */
  balance: z.number(),
  customer_id: z.number(),
  customer_name: z.string(),
  mobile: z.string(),
  landline: z.string(),
  email_address: z.string(),
  no_messages: z.boolean(),
});
export type UnclaimedItem = z.infer<typeof UnclaimedItem>;
/** Oldest first; truncated past UNCLAIMED_LIMIT rows. */
export const Unclaimed = z.object({ days: z.number(), items: z.array(UnclaimedItem), truncated: z.boolean() });
export type Unclaimed = z.infer<typeof Unclaimed>;
export const unclaimedOut = (u: Unclaimed): Unclaimed => ({ ...u, items: u.items.map((i) => ({ ...i, balance: toEuros(i.balance) })) });
