import type { RunStop } from "./api";

/** States a ticket has before its pickup happens: the spec §4 order up to AWAITING PICKUP. */
const BEFORE_PICKUP = new Set(["CREATED", "", "AWAITING PICKUP"]);
/** States a delivered ticket ends in (spec §4). */
const DELIVERED = new Set(["DELIVERED", "DELIVERED AND PAID", "DELIVERED NOT PAID", "CLOSED"]);

/**
 * Whether a stop of the driver's run is done (issue 25: a done stop looks done, with no
 * button left to press again): a pickup once the ticket moved past AWAITING PICKUP, a
 * delivery once it is delivered or closed.
 */
export function stopDone(s: Pick<RunStop, "kind" | "state">): boolean {
  return s.kind === "pickup" ? !BEFORE_PICKUP.has(s.state) : DELIVERED.has(s.state);
}

/** States of a ticket still at the plant or before it (spec §4 order, up to IN PROGRESS): not ready to deliver. */
const NOT_READY = new Set([...BEFORE_PICKUP, "PICKED UP", "TECNOWASH", "MARKED", "IN PROGRESS"]);

/**
 * Whether a delivery stop's ticket is not ready (issue 31): a ticket still at TECNOWASH or in
 * progress on the run would send the van out for clothes that are not on it.
 */
export function stopNotReady(s: Pick<RunStop, "kind" | "state">): boolean {
  return s.kind === "delivery" && NOT_READY.has(s.state);
}
