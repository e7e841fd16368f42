// Production reference data (spec §4): the ticket states and their order. Every box has them;
// boot ensures them before anything else runs. Admins add locality delivery states later.
import type { Db } from "../client";
import { ticketStates } from "../schema";

/** A drizzle transaction on the app database (same query API as Db). */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** Spec §4's ticket states, in order. "" is the spec's "empty" state. */
export const TICKET_STATES: readonly { name: string; hidden_in_lists?: boolean; is_locality_delivery?: boolean; prices_on_receipt: boolean }[] = [
  { name: "CREATED", hidden_in_lists: true, prices_on_receipt: false },
  { name: "", prices_on_receipt: false },
  { name: "AWAITING PICKUP", prices_on_receipt: false },
  { name: "PICKED UP", prices_on_receipt: false },
  { name: "TECNOWASH", prices_on_receipt: false },
  { name: "MARKED", prices_on_receipt: false },
  { name: "IN PROGRESS", prices_on_receipt: false },
  { name: "AWAITING DELIVERY", prices_on_receipt: true },
  { name: "OUT FOR DELIVERY", prices_on_receipt: true },
  { name: "B Kara", is_locality_delivery: true, prices_on_receipt: true },
  { name: "Mosta", is_locality_delivery: true, prices_on_receipt: true },
  { name: "San Gwann", is_locality_delivery: true, prices_on_receipt: true },
  { name: "DELIVERED", prices_on_receipt: true },
  { name: "DELIVERED AND PAID", prices_on_receipt: true },
  { name: "DELIVERED NOT PAID", prices_on_receipt: true },
  { name: "CLOSED", prices_on_receipt: true },
];

/** Inserts the states that are missing; existing rows (and admin-added states) are left alone. */
export async function seedTicketStates(db: Db | Tx): Promise<void> {
  await db
    .insert(ticketStates)
    .values(
      TICKET_STATES.map((s, i) => ({
        name: s.name,
        position: i + 1,
        hidden_in_lists: s.hidden_in_lists ?? false,
        is_locality_delivery: s.is_locality_delivery ?? false,
        prices_on_receipt: s.prices_on_receipt,
      })),
    )
    .onConflictDoNothing({ target: ticketStates.name });
}
