/** Value lists of people that both the box and the UI need (the UI may import domain values). */

/** Spec §6 roles, in the order the screens list them. */
export const ROLES = ["admin", "manager", "employee", "driver"] as const;
export type Role = (typeof ROLES)[number];

/** Spec §3 customer titles. */
export const TITLES = ["Mr.", "Mrs.", "Ms.", "Profs.", "Ing.", "Dr."] as const;
export type Title = (typeof TITLES)[number];
