/** Spec §4: EXPRESS modifier names and their day offsets from confirmation. */
export const EXPRESS_OFFSETS: Readonly<Record<string, number>> = {
  "Same Day": 0,
  "Next Day": 1,
  "Third Day": 2,
  "Fourth Day": 3,
  "Fifth Day": 4,
  "Sixth Day": 5,
};

/** The day offset of an express modifier's label, or -1 when it is not one. */
export const expressOffset = (label: string) => EXPRESS_OFFSETS[label.trim()] ?? -1;

/**
 * An express item is due on confirmed_at plus the modifier's offset (YYYY-MM-DD, UTC day of
 * confirmation). Null when the ticket is unconfirmed or the label is unknown.
 */
export function expressDeliveryDate(confirmedAt: string | null, label: string): string | null {
  const offset = expressOffset(label);
  if (!confirmedAt || offset < 0) return null;
  const d = new Date(confirmedAt);
  if (Number.isNaN(d.getTime())) return null;
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}
