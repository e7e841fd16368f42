import { type AnySQLiteColumn, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { cents, flag, id } from "./_common";

export const actions = sqliteTable("actions", {
  id: id(),
  name: text("name").notNull(),
  image: text("image"),
  visible: flag("visible", true),
  is_percentage_of: integer("is_percentage_of").references((): AnySQLiteColumn => actions.id),
  /** Hundredths: cents when flat, hundredths of a percent when is_percentage_of is set. */
  up_charge: cents("up_charge"),
  images_required: flag("images_required"),
  /** "PERCENTAGE n" (spec §3). */
  discount: text("discount").notNull().default("PERCENTAGE 0"),
});

export const modifiers = sqliteTable(
  "modifiers",
  {
    id: id(),
    /** 0 means a root modifier (spec §3); kept as a plain integer for that reason. */
    parent_id: integer("parent_id").notNull().default(0),
    type: text("type", { enum: ["COLOR", "DESIGN", "MATERIAL", "STAIN", "BRAND", "TAILOR", "EXPRESS"] }).notNull(),
    name: text("name").notNull(),
    /** An image path, or "color:<value>" for a swatch. */
    image: text("image"),
    discount: text("discount").notNull().default("PERCENTAGE 0"),
    visible: flag("visible", true),
    /** Hundredths: cents when flat, hundredths of a percent when is_percentage. */
    up_charge: cents("up_charge"),
    order: integer("order").notNull().default(0),
    is_percentage: flag("is_percentage"),
  },
  (t) => [index("modifiers_type_idx").on(t.type, t.parent_id, t.order)],
);

export const garmentCategories = sqliteTable("garment_categories", {
  id: id(),
  type: text("type").notNull(),
  name: text("name").notNull(),
  visible: flag("visible", true),
  image: text("image"),
  order: integer("order").notNull().default(0),
  default_action_id: integer("default_action_id").references(() => actions.id),
});

export const garmentSubCategories = sqliteTable(
  "garment_sub_categories",
  {
    id: id(),
    garment_category_id: integer("garment_category_id")
      .notNull()
      .references(() => garmentCategories.id),
    name: text("name").notNull(),
    visible: flag("visible", true),
    image: text("image"),
    discount: text("discount").notNull().default("PERCENTAGE 0"),
    /** Comma-separated piece names, e.g. "Jacket,Trousers". */
    pieces: text("pieces").notNull().default(""),
    images_required: flag("images_required"),
    show_choose_pieces: flag("show_choose_pieces"),
    order: integer("order").notNull().default(0),
    allow_quantity: flag("allow_quantity"),
  },
  (t) => [index("garment_sub_categories_cat_idx").on(t.garment_category_id, t.order)],
);

/** The price of an action for a garment (spec: ActionGarmentSubCategory). */
export const actionGarmentSubCategories = sqliteTable(
  "action_garment_sub_categories",
  {
    id: id(),
    garment_sub_category_id: integer("garment_sub_category_id")
      .notNull()
      .references(() => garmentSubCategories.id),
    action_id: integer("action_id")
      .notNull()
      .references(() => actions.id),
    /** Hundredths: cents when flat, hundredths of a percent when is_percentage_of is set. */
    price: cents("price"),
    discount: text("discount"),
    is_percentage_of: integer("is_percentage_of").references((): AnySQLiteColumn => actionGarmentSubCategories.id),
  },
  (t) => [uniqueIndex("agsc_garment_action_uq").on(t.garment_sub_category_id, t.action_id)],
);

/** Monthly workload configuration (spec: Configuration). */
export const configurations = sqliteTable(
  "configurations",
  {
    id: id(),
    month: text("month").notNull(),
    action_id: integer("action_id")
      .notNull()
      .references(() => actions.id),
    /** Seven comma-separated whole numbers, Sunday to Saturday. */
    amounts: text("amounts").notNull().default("0,0,0,0,0,0,0"),
  },
  (t) => [index("configurations_month_idx").on(t.month, t.action_id)],
);

export const pickupDeliveries = sqliteTable("pickup_deliveries", {
  id: id(),
  season: text("season", { enum: ["PEAK", "OFFSEASON"] }).notNull(),
  /** Month-day "MM-DD"; optional. */
  from: text("from"),
  to: text("to"),
  day_of_week: integer("day_of_week").notNull(),
  quantity: integer("quantity").notNull().default(0),
  /** Semicolon-separated locality ids. */
  localities: text("localities").notNull().default(""),
});
