// The places module's contract with the UI: localities, streets, addresses and preferences.
import { z } from "zod";
import { text } from "../../domain/schemas";

/** An address's own fields as a client sends them; locality and street are required to save (spec §5). */
export const AddressBody = z.object({
  name: text(100).optional(),
  number: text(20).optional(),
  locality_id: z.number().int().min(0),
  street_id: z.number().int().min(0),
});
export type AddressInput = z.infer<typeof AddressBody>;

export const NameBody = z.object({ name: text(100).min(1) });
export const StreetBody = z.object({ locality_id: z.number().int().positive(), name: text(100).min(1) });
export const AddressIdsQuery = z.object({
  ids: z.union([z.coerce.number().int().positive(), z.array(z.coerce.number().int().positive()).max(500)]).optional(),
});

export const Locality = z.object({ id: z.number(), name: z.string() });
export type Locality = z.infer<typeof Locality>;
export const Street = z.object({ id: z.number(), locality_id: z.number(), name: z.string() });
export type Street = z.infer<typeof Street>;
export const Preference = z.object({ id: z.number(), name: z.string() });
export type Preference = z.infer<typeof Preference>;

/** An address as the API answers it: its fields, the locality and street names, and the display line (spec §3). */
export const Address = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  locality_id: z.number(),
  street_id: z.number(),
  locality: z.string(),
  street: z.string(),
  line: z.string(),
});
export type Address = z.infer<typeof Address>;
