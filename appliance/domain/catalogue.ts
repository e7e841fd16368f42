/** Value lists of the catalogue that both the box and the UI need. */

/** Spec §3 garment category types. */
export const CATEGORY_TYPES = ["Dry Clean", "Laundry", "TECNOWASH"] as const;
export type CategoryType = (typeof CATEGORY_TYPES)[number];

/** Spec §3 modifier types, in the order the screens show them. */
export const MODIFIER_TYPES = ["COLOR", "DESIGN", "MATERIAL", "STAIN", "BRAND", "TAILOR", "EXPRESS"] as const;
export type ModifierType = (typeof MODIFIER_TYPES)[number];
