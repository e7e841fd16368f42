/**
 * Where finished, bagged garments wait (issue 25 "Where is it?"): an item's `location` is a
 * rack or slot name, typed or scanned from a rack label. Pure, so the tablet and the box read
 * rack codes and bound locations the same way.
 *
 *   rack label      !R!R:{name}      (name percent-encoded for ',', ':', '%', 'Ö', 'ß')
 *
 * The '!R!' head is none of the item label codes' ('!T!', '!I!', '!M!', or a bare ticket
 * number), so a rack label never reads as a ticket or an item and those never read as a rack.
 */
import { unmangle } from "./scancodes";

/** Longest location: a rack label prints it on one line with room to spare, and the QR stays small. */
export const LOCATION_MAX = 40;
/** The state an item waits in, ready, until the customer collects it or the van takes it. */
export const READY_STATE = "AWAITING DELIVERY";
/** The unclaimed list's thresholds (days ready and not collected); the receipt warns of disposal after 3 months. */
export const UNCLAIMED_DAYS = [30, 60, 90] as const;

const RACK_HEAD = "!R!R:";

/** A location as stored: spaces collapsed and trimmed, control characters refused by the schema before this. */
export const cleanLocation = (s: string) => s.replace(/\s+/g, " ").trim();

/** No control characters (they would break a label line or a printer command). */
export const LOCATION_PATTERN = /^[^\x00-\x1f\x7f]*$/;

export function rackCode(name: string): string {
  return RACK_HEAD + cleanLocation(name).replace(/[%,:Öß]/g, (c) => encodeURIComponent(c));
}

/**
 * The rack name a scanned rack label carries, or null when the code is no rack label (then
 * it is read as a ticket or item code). A gun's one prefix character is allowed, as for the
 * other codes; a keyboard-wedge gun on a German layout is undone by unmangle.
 */
export function parseRackCode(raw: string): string | null {
  let s = unmangle(raw);
  if (!s.toUpperCase().startsWith(RACK_HEAD) && s.slice(1).toUpperCase().startsWith(RACK_HEAD)) s = s.slice(1);
  if (!s.toUpperCase().startsWith(RACK_HEAD)) return null;
  let name = s.slice(RACK_HEAD.length);
  try {
    name = decodeURIComponent(name);
  } catch {}
  name = cleanLocation(name);
  return name && name.length <= LOCATION_MAX && LOCATION_PATTERN.test(name) ? name : null;
}
