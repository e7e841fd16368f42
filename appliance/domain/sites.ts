/**
 * Site names (issue 15): a shop's name in the chain, as HQ files its replica and copy
 * (`<data>/sites/<site>.db`). Lower-case letters, digits and dashes only, starting with a
 * letter or digit, so a name can never climb out of a folder or hide a path in a URL.
 */
export const SITE_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

export const isSiteName = (s: string): boolean => SITE_NAME.test(s);

/** The box's role: a shop (or the HQ plant) alone, or head quarters' box that also sees every site. */
export const BOX_MODES = ["shop", "hq"] as const;
export type BoxMode = (typeof BOX_MODES)[number];
