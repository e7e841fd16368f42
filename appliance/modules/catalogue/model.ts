// The catalogue's contract with the UI: actions, garment categories and garments, action
// prices per garment, and modifiers. Money is euros here (or percents where a price or an
// up-charge is a percentage); the services speak hundredths (cents, hundredths of a percent).
import { z } from "zod";
import { CATEGORY_TYPES, MODIFIER_TYPES } from "../../domain/catalogue";
import { Discount, eurosUpTo, text } from "../../domain/schemas";

/**
 * Euros when flat; percent when a percentage. Stored in hundredths either way, so both are
 * whole hundredths: the euros-to-the-cent schema (a fraction of a cent or of a hundredth of a
 * percent is a 422, never rounded).
 */
const Amount = eurosUpTo(1_000_000);
const Order = z.number().int().min(0).max(1_000_000);
const optionalId = z.coerce.number().int().positive().optional();

export const ReOrderBody = z.array(z.number().int().positive()).max(10_000);

// ---- actions
export const ActionBody = z.object({
  name: text(100).min(1),
  image: text(300).nullish(),
  visible: z.boolean().optional(),
  /** The screen's "is percentage" toggle: off clears is_percentage_of on save (spec §4). */
  is_percentage: z.boolean().optional(),
  is_percentage_of: z.number().int().positive().nullish(),
  /** Euros when flat; percent when is_percentage_of is set. */
  up_charge: Amount.optional(),
  images_required: z.boolean().optional(),
  discount: Discount.optional(),
});
export type ActionInput = z.infer<typeof ActionBody>;

export const Action = z.object({
  id: z.number(),
  name: z.string(),
  image: z.string().nullable(),
  visible: z.boolean(),
  is_percentage: z.boolean(),
  is_percentage_of: z.number().nullable(),
  up_charge: z.number(),
  images_required: z.boolean(),
  discount: z.string(),
  /** The computed price in euros (a percentage action priced from its base). */
  price: z.number(),
});
export type Action = z.infer<typeof Action>;

// ---- garment categories and garments (sub-categories)
export const CategoryBody = z.object({
  type: z.enum(CATEGORY_TYPES),
  name: text(100).min(1),
  visible: z.boolean().optional(),
  image: text(300).nullish(),
  order: Order.optional(),
  default_action_id: z.number().int().positive().nullish(),
});
export type CategoryInput = z.infer<typeof CategoryBody>;

/** Pieces are comma-separated names; blanks and duplicates are dropped. */
const Pieces = z
  .string()
  .max(500)
  .transform((s) =>
    [
      ...new Set(
        s
          .split(",")
          .map((p) => p.trim())
          .filter(Boolean),
      ),
    ].join(","),
  );

export const SubCategoryBody = z.object({
  garment_category_id: z.number().int().positive(),
  name: text(100).min(1),
  visible: z.boolean().optional(),
  image: text(300).nullish(),
  discount: Discount.optional(),
  pieces: Pieces.optional(),
  images_required: z.boolean().optional(),
  show_choose_pieces: z.boolean().optional(),
  order: Order.optional(),
  allow_quantity: z.boolean().optional(),
});
export type SubCategoryInput = z.infer<typeof SubCategoryBody>;
export const SubCategoryQuery = z.object({ garment_category_id: optionalId });
export const PriceListQuery = z.object({
  Employee: z.string().max(2000).optional(),
  Agent: z.string().max(2000).optional(),
  preview: z.enum(["true", "false"]).optional(),
});

/** A garment's action price as its detail lists it: the effective price in euros. */
export const GarmentPrice = z.object({ id: z.number(), action_id: z.number(), action: z.string(), price: z.number() });
export const SubCategory = z.object({
  id: z.number(),
  garment_category_id: z.number(),
  name: z.string(),
  visible: z.boolean(),
  image: z.string().nullable(),
  discount: z.string(),
  pieces: z.string(),
  images_required: z.boolean(),
  show_choose_pieces: z.boolean(),
  order: z.number(),
  allow_quantity: z.boolean(),
  prices: z.array(GarmentPrice).optional(),
});
export type SubCategory = z.infer<typeof SubCategory>;
export const Category = z.object({
  id: z.number(),
  type: z.enum(CATEGORY_TYPES),
  name: z.string(),
  visible: z.boolean(),
  image: z.string().nullable(),
  order: z.number(),
  default_action_id: z.number().nullable(),
  sub_categories: z.array(SubCategory),
});
export type Category = z.infer<typeof Category>;

// ---- action prices per garment
export const PriceBody = z.object({
  garment_sub_category_id: z.number().int().positive(),
  action_id: z.number().int().positive(),
  /** Euros when flat; percent of another price of the same garment when is_percentage_of is set. */
  price: Amount,
  discount: Discount.nullish(),
  is_percentage_of: z.number().int().positive().nullish(),
});
export type PriceInput = z.infer<typeof PriceBody>;
export const PriceQuery = z.object({ garment_sub_category_id: optionalId, action_id: optionalId });

/** The quick price grid saves every changed cell in one go: a flat price, or null to clear it. */
export const BulkPriceBody = z
  .array(z.object({ garment_sub_category_id: z.number().int().positive(), action_id: z.number().int().positive(), price: Amount.nullable() }))
  .min(1)
  .max(5000);
export type BulkPriceInput = z.infer<typeof BulkPriceBody>;

export const Price = z.object({
  id: z.number(),
  garment_sub_category_id: z.number(),
  action_id: z.number(),
  price: z.number(),
  discount: z.string().nullable(),
  is_percentage_of: z.number().nullable(),
  /** What the price comes to in euros (a percentage price computed from its base). */
  effective_price: z.number(),
});
export type Price = z.infer<typeof Price>;

// ---- modifiers
/** An image path, or "color:<css colour>" for a swatch; the colour is kept to safe characters. */
const Image = z
  .string()
  .trim()
  .max(300)
  .refine((s) => !s.startsWith("color:") || /^color:[#a-zA-Z0-9(),.%\s-]{1,60}$/.test(s), "must be color: followed by a colour value");

export const ModifierBody = z.object({
  parent_id: z.number().int().min(0).optional(),
  type: z.enum(MODIFIER_TYPES),
  name: text(100).min(1),
  image: Image.nullish(),
  discount: Discount.optional(),
  visible: z.boolean().optional(),
  /** Euros when flat; percent when is_percentage. */
  up_charge: Amount.optional(),
  order: Order.optional(),
  is_percentage: z.boolean().optional(),
});
export type ModifierInput = z.infer<typeof ModifierBody>;

export const Modifier = z.object({
  id: z.number(),
  parent_id: z.number(),
  type: z.enum(MODIFIER_TYPES),
  name: z.string(),
  image: z.string().nullable(),
  discount: z.string(),
  visible: z.boolean(),
  up_charge: z.number(),
  order: z.number(),
  is_percentage: z.boolean(),
});
export type Modifier = z.infer<typeof Modifier>;
