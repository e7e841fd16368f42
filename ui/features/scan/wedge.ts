/**
 * Tells a keyboard-wedge gun's burst from a person typing on a page with no field focused.
 *
 * A burst counts when its keys came on average under 100 ms apart (people type slower), or
 * when it is one of our own label codes ("!T!T:…", "!I!…", "!M!…"): nobody types those by
 * hand, and a busy tablet (or a slow gun) can space a real scan's keys wider than 100 ms.
 * Before this rule a scan typed on a loaded tablet was silently dropped.
 */
export const WEDGE_MAX_AVG_MS = 100;
/** A key later than this after the previous one starts a new burst. */
export const WEDGE_GAP_MS = 1000;

const LABEL_CODE = /^![TIM]!/i;

export function isWedgeBurst(text: string, elapsedMs: number): boolean {
  if (text.length < 4) return false;
  return LABEL_CODE.test(text) || elapsedMs / text.length < WEDGE_MAX_AVG_MS;
}
