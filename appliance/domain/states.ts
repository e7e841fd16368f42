// Ticket state names the code reasons about (spec §4). The full ordered list is reference
// data (db/seed/states.ts); these are the ones with a rule attached, in one place so the
// box's modules and the UI never disagree.

/** A ticket being written at the counter: hidden in lists (spec §4). */
export const CREATED_STATE = "CREATED";

/** The garment has left the shop for good: no longer in the plant's or the van's work. */
export const DONE_STATES: readonly string[] = ["DELIVERED", "DELIVERED AND PAID", "DELIVERED NOT PAID", "CLOSED"];

/**
 * States that say the ticket is paid. Setting one on a ticket or item with a balance takes that
 * balance as paid to whoever set it, never a silent write-off (README "Paid states").
 */
export const PAID_STATES: readonly string[] = ["DELIVERED AND PAID", "CLOSED"];

/** The state confirming gives a ticket (spec §2/§4); a receipt printed with the confirm shows it. */
export const stateOnConfirm = (t: { state: string; pickup_from_client: boolean }) =>
  t.state === "CREATED" ? (t.pickup_from_client ? "AWAITING PICKUP" : "") : t.state;
