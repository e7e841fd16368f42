/**
 * The browser specs' two lanes (playwright.config.ts, issue 33): "demo" runs on the config's
 * demo box (+0) and empty box (+2); "beside" runs at the same time on a second demo box (+16)
 * and boxes of its specs' own. A spec not listed here is in "demo". The rules a spec must meet
 * to be listed are in docs/decisions/suite-time.md and are checked by scripts/e2e/lanes.test.ts.
 */
/** Specs that reach a demo box only through their baseURL: in "beside" that is the second demo box. */
export const BESIDE_BY_BASE_URL = ["catalogue", "floor", "home", "people", "scheduling"];
/** Specs that start every box they use themselves, on offsets of their own (and may use the SMS stand-in). */
export const BESIDE_OWN_BOXES = ["booking", "bookpage", "chain", "hotel", "offline", "public", "reference", "release"];
export const BESIDE_SPECS = [...BESIDE_BY_BASE_URL, ...BESIDE_OWN_BOXES];
