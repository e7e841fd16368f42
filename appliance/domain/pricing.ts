/**
 * The pricing engine: pure, I/O-free, shared by the appliance and the UI.
 *
 * Units: money is integer cents. Percent-valued fields (an action's up_charge when it is a
 * percentage of another action, a price record's price when it is a percentage of another
 * record, a percentage modifier's up_charge) are integer hundredths of a percent:
 * 15000 = 150.00 %. Intermediate values stay unrounded; every public result is rounded to
 * whole cents once, by `roundCents`, here and nowhere else.
 */

import { clampPercent } from "./money";

/** Round half away from zero to whole cents; never negative, never NaN. */
export function roundCents(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0;
  return Math.round(value + Number.EPSILON * value);
}

// ---------------------------------------------------------------- caps

/**
 * Bounds on money (issue 11, L4). Chained percentage prices (150 % of 150 % of …) used to
 * pass 2^53 cents: the row committed as an integer the database driver cannot read back as
 * a number, and every later read of that ticket and its customer failed. Writes beyond a cap
 * are refused (422 naming the field); reads clamp, so a value stored before the caps still reads.
 */
export const MAX_LINE_CENTS = 100_000_000; // €1,000,000 for one price, one item
export const MAX_TICKET_CENTS = 1_000_000_000; // €10,000,000 for one ticket
/** Percentage prices and up-charges, in hundredths of a percent: at most 1000 %. */
export const MAX_PERCENT_HUNDREDTHS = 100_000;

const euros = (cents: number) => `€${(cents / 100).toLocaleString("en", { minimumFractionDigits: 2 })}`;
/** Texts of the 422s, naming the field that broke a cap. */
export const capMessage = {
  line: (field: string) => `${field}: at most ${euros(MAX_LINE_CENTS)}`,
  item: (field: string) => `${field}: an item may cost at most ${euros(MAX_LINE_CENTS)}`,
  ticket: (field: string) => `${field}: a ticket may come to at most ${euros(MAX_TICKET_CENTS)}`,
  percent: (field: string) => `${field}: a percentage may be at most ${MAX_PERCENT_HUNDREDTHS / 100} %`,
  chain: (field: string) => `${field}: this percentage of a percentage would come to more than ${euros(MAX_LINE_CENTS)}`,
};

const capLine = (v: number) => Math.min(MAX_LINE_CENTS, v);
const pct = (hundredthsOfPercent: number) => Math.min(MAX_PERCENT_HUNDREDTHS, hundredthsOfPercent) / 10_000;

// ---------------------------------------------------------------- actions

export interface PricedAction {
  id: number;
  is_percentage_of: number | null;
  /** Cents when flat; hundredths of a percent when is_percentage_of is set. */
  up_charge: number;
}

/**
 * Spec §3: the price of an action is its flat up_charge, or up_charge percent of the action
 * it is a percentage of (chains resolve). A missing reference or a cycle prices at 0.
 */
export function actionPrice(id: number, actions: ReadonlyMap<number, PricedAction>): number {
  return roundCents(rawActionPrice(id, actions, new Set()));
}

function rawActionPrice(id: number, actions: ReadonlyMap<number, PricedAction>, seen: Set<number>): number {
  const a = actions.get(id);
  if (!a || seen.has(id)) return 0;
  if (a.is_percentage_of == null) return capLine(Math.max(0, a.up_charge));
  seen.add(id);
  const base = rawActionPrice(a.is_percentage_of, actions, seen);
  return base === 0 ? 0 : capLine(base * pct(Math.max(0, a.up_charge)));
}

/**
 * The cap check for a table of actions about to be saved: every flat price within a line,
 * every percentage within 1000 %, and every chain resolving within a line. Error text or null.
 */
export function actionTableError(actions: ReadonlyMap<number, PricedAction>): string | null {
  for (const a of actions.values()) {
    if (a.is_percentage_of == null ? a.up_charge > MAX_LINE_CENTS : a.up_charge > MAX_PERCENT_HUNDREDTHS)
      return a.is_percentage_of == null ? capMessage.line("up_charge") : capMessage.percent("up_charge");
    if (
      uncappedChain(
        a.id,
        (id) => actions.get(id),
        (x) => x.up_charge,
      ) > MAX_LINE_CENTS
    )
      return capMessage.chain("up_charge");
  }
  return null;
}

/** A chain's value without the caps (cycles and missing links are 0), to tell whether it breaks one. */
function uncappedChain<T extends { is_percentage_of: number | null }>(
  id: number,
  get: (id: number) => T | undefined,
  value: (x: T) => number,
  seen = new Set<number>(),
): number {
  const x = get(id);
  if (!x || seen.has(id)) return 0;
  if (x.is_percentage_of == null) return Math.max(0, value(x));
  seen.add(id);
  return uncappedChain(x.is_percentage_of, get, value, seen) * (Math.max(0, value(x)) / 10_000);
}

// ---------------------------------------------------------------- prices per garment

export interface PriceRecord {
  id: number;
  garment_sub_category_id: number;
  action_id: number;
  /** Cents when flat; hundredths of a percent when is_percentage_of is set. */
  price: number;
  is_percentage_of: number | null;
}

/**
 * Spec §3 (ActionGarmentSubCategory): price percent of another record of the same garment,
 * or the flat price; 0 on error (missing record, another garment, a cycle).
 */
export function effectivePrice(id: number, records: ReadonlyMap<number, PriceRecord>): number {
  return roundCents(rawEffectivePrice(id, records, new Set(), undefined));
}

function rawEffectivePrice(id: number, records: ReadonlyMap<number, PriceRecord>, seen: Set<number>, garment: number | undefined): number {
  const r = records.get(id);
  if (!r || seen.has(id) || (garment !== undefined && r.garment_sub_category_id !== garment)) return 0;
  if (r.is_percentage_of == null) return capLine(Math.max(0, r.price));
  seen.add(id);
  return capLine(rawEffectivePrice(r.is_percentage_of, records, seen, r.garment_sub_category_id) * pct(Math.max(0, r.price)));
}

/** The cap check for a garment's price records about to be saved (see actionTableError). */
export function priceTableError(records: ReadonlyMap<number, PriceRecord>): string | null {
  for (const r of records.values()) {
    if (r.is_percentage_of == null ? r.price > MAX_LINE_CENTS : r.price > MAX_PERCENT_HUNDREDTHS)
      return r.is_percentage_of == null ? capMessage.line("price") : capMessage.percent("price");
    if (
      uncappedChain(
        r.id,
        (id) => records.get(id),
        (x) => x.price,
      ) > MAX_LINE_CENTS
    )
      return capMessage.chain("price");
  }
  return null;
}

/** A modifier's up-charge: flat within a line, a percentage within 1000 %. Error text or null. */
export function modifierUpChargeError(upCharge: number, isPercentage: boolean): string | null {
  if (isPercentage) return upCharge > MAX_PERCENT_HUNDREDTHS ? capMessage.percent("up_charge") : null;
  return upCharge > MAX_LINE_CENTS ? capMessage.line("up_charge") : null;
}

/**
 * Checks a reference before it is saved: the target must exist, belong to the same garment,
 * and following the chain from it must never come back to `id`. Returns an error text or null.
 */
export function priceReferenceError(id: number, target: number | null, garment: number, records: ReadonlyMap<number, PriceRecord>): string | null {
  if (target == null) return null;
  if (target === id) return "is_percentage_of: a price cannot be a percentage of itself";
  const seen = new Set<number>([id]);
  let cur: number | null = target;
  while (cur != null) {
    const r = records.get(cur);
    if (!r) return "is_percentage_of: no such price record";
    if (r.garment_sub_category_id !== garment) return "is_percentage_of: must be a price of the same garment";
    if (seen.has(cur)) return "is_percentage_of: this would make a cycle of percentages";
    seen.add(cur);
    cur = r.is_percentage_of;
  }
  return null;
}

/** Same check for actions (is_percentage_of another action). */
export function actionReferenceError(id: number, target: number | null, actions: ReadonlyMap<number, PricedAction>): string | null {
  if (target == null) return null;
  if (target === id) return "is_percentage_of: an action cannot be a percentage of itself";
  const seen = new Set<number>([id]);
  let cur: number | null = target;
  while (cur != null) {
    const a = actions.get(cur);
    if (!a) return "is_percentage_of: no such action";
    if (seen.has(cur)) return "is_percentage_of: this would make a cycle of percentages";
    seen.add(cur);
    cur = a.is_percentage_of;
  }
  return null;
}

// ---------------------------------------------------------------- items and tickets

export interface ItemPricing {
  /** Each action line: its unit price in cents and its quantity. */
  actions: readonly { price: number; quantity: number }[];
  /** Item quantity (only where the garment allows it; 1 otherwise). */
  quantity: number;
  modifiers: readonly { up_charge: number; is_percentage: boolean }[];
  /** Whole percents, each 0..100 (from "PERCENTAGE n" texts). */
  discounts: { item: number; garment: number; customer: number; ticket: number };
  /** Cents; replaces the computed total when present. */
  total_override?: number | null;
}

export interface ItemTotals {
  /** Actions × quantity plus modifier up-charges, before any discount (at most a line's cap). */
  pre_discount_total: number;
  /** What the item costs: override if present, else after discounts. */
  total: number;
  /** The item came to more than a line may (the totals above are clamped): a write refuses it. */
  over_cap: boolean;
}

/**
 * The one definition of an item's price (spec §5 "Money"):
 *  1. base = Σ action price × action quantity, times the item quantity;
 *  2. + modifier up-charges: flat ones once per item, percentage ones as a percent of base;
 *  3. − discounts applied one after another (item, garment, customer, ticket), each a
 *     percentage of what is left, so 10 % and 10 % make 19 %, never more than 100 %;
 *  4. rounded to cents once; a total override replaces the result.
 */
export function itemTotals(p: ItemPricing): ItemTotals {
  const qty = Number.isFinite(p.quantity) && p.quantity > 0 ? Math.floor(p.quantity) : 1;
  const base = p.actions.reduce((s, a) => s + Math.max(0, a.price) * Math.max(0, a.quantity), 0) * qty;
  const upCharges = p.modifiers.reduce((s, m) => s + (m.is_percentage ? base * pct(Math.max(0, m.up_charge)) : Math.max(0, m.up_charge)), 0);
  const before = base + upCharges;
  const d = p.discounts;
  const after = [d.item, d.garment, d.customer, d.ticket].reduce((v, n) => v * (1 - clampPercent(n) / 100), before);
  const override = p.total_override;
  const total = override != null && Number.isFinite(override) && override >= 0 ? Math.round(override) : roundCents(after);
  return { pre_discount_total: capLine(roundCents(before)), total: capLine(total), over_cap: before > MAX_LINE_CENTS || total > MAX_LINE_CENTS };
}

/**
 * Ticket total = Σ item totals + pickup and delivery charges (all cents), clamped to a
 * ticket's cap; `ticketOverCap` tells a write to refuse instead.
 */
export function ticketTotal(itemTotalsCents: readonly number[], pickupCharge: number, deliveryCharge: number): number {
  return Math.min(MAX_TICKET_CENTS, uncappedTicketTotal(itemTotalsCents, pickupCharge, deliveryCharge));
}
export function ticketOverCap(itemTotalsCents: readonly number[], pickupCharge: number, deliveryCharge: number): boolean {
  return uncappedTicketTotal(itemTotalsCents, pickupCharge, deliveryCharge) > MAX_TICKET_CENTS;
}
const uncappedTicketTotal = (items: readonly number[], pickup: number, delivery: number) =>
  items.reduce((s, t) => s + Math.max(0, t), 0) + Math.max(0, pickup) + Math.max(0, delivery);

export const VAT_RATE = 0.18;

/** VAT is included in prices (spec §9): subtotal = total / 1.18, rounded once. */
export function vatSplit(totalCents: number): { subtotal: number; vat: number; total: number } {
  const subtotal = roundCents(totalCents / (1 + VAT_RATE));
  return { subtotal, vat: totalCents - subtotal, total: totalCents };
}
