// What the import brings, in the order records depend on one another: for each kind, how it
// is read from the old system (spec §7 GET routes, and only those), how it is checked (records.ts), and
// which other records it points at (refused when one is missing, with that reason).
import type { z } from "zod";
import {
  actionGarmentSubCategories,
  actions,
  addresses,
  agents,
  configurations,
  customers,
  employees,
  garmentCategories,
  garmentSubCategories,
  localities,
  modifiers,
  pickupDeliveries,
  preferences,
  streets,
  tickets,
} from "../../../db/schema";
import * as R from "./records";
import type { Kind } from "./writer";

/** A reference a record makes: the kind and id that must exist here or come in this run. */
export type Ref = [Kind, number | null, string];

export interface KindPlan {
  kind: Kind;
  /** Plural, for the report. */
  label: string;
  schema: z.ZodType<{ id: number }>;
  /** The table whose ids exist on this box already. */
  table: { id: any };
  refs(r: any): Ref[];
  /** Read whole (small kinds), or page by page (customers, tickets). */
  read: { path: string } | { perLocality: true } | { paged: string };
}

const ids = (text: string) =>
  text
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);

export const PLAN: KindPlan[] = [
  { kind: "locality", label: "localities", schema: R.Locality, table: localities, refs: () => [], read: { path: "/localities/" } },
  {
    kind: "street",
    label: "streets",
    schema: R.Street,
    table: streets,
    refs: (r: R.Street) => [["locality", r.locality_id, "locality"]],
    read: { perLocality: true },
  },
  {
    kind: "address",
    label: "addresses",
    schema: R.Address,
    table: addresses,
    refs: (r: R.Address) => [
      ["locality", r.locality_id, "locality"],
      ["street", r.street_id, "street"],
    ],
    read: { path: "/address/" },
  },
  { kind: "agent", label: "agents", schema: R.Agent, table: agents, refs: (r: R.Agent) => [["address", r.address_id, "address"]], read: { path: "/agents/" } },
  { kind: "preference", label: "preferences", schema: R.Preference, table: preferences, refs: () => [], read: { path: "/preferences/" } },
  {
    kind: "employee",
    label: "employees",
    schema: R.Employee,
    table: employees,
    refs: (r: R.Employee) => [["agent", r.agent_id, "agent"], ...ids(r.localities).map((l): Ref => ["locality", l, "localities"])],
    read: { path: "/employees/" },
  },
  {
    kind: "customer",
    label: "customers",
    schema: R.Customer,
    table: customers,
    refs: (r: R.Customer) => [
      ["agent", r.agent_id, "agent"],
      ["address", r.address_id, "address"],
      ...r.preferences.map((p): Ref => ["preference", p, "preferences"]),
    ],
    read: { paged: "/customers/" },
  },
  {
    kind: "action",
    label: "actions",
    schema: R.Action,
    table: actions,
    refs: (r: R.Action) => [["action", r.is_percentage_of, "is_percentage_of"]],
    read: { path: "/actions/" },
  },
  {
    kind: "category",
    label: "garment categories",
    schema: R.Category,
    table: garmentCategories,
    refs: (r: R.Category) => [["action", r.default_action_id, "default_action_id"]],
    read: { path: "/garmentCategories/" },
  },
  {
    kind: "garment",
    label: "garments",
    schema: R.Garment,
    table: garmentSubCategories,
    refs: (r: R.Garment) => [["category", r.garment_category_id, "garment_category_id"]],
    read: { path: "/garmentSubCategories/" },
  },
  {
    kind: "price",
    label: "prices",
    schema: R.Price,
    table: actionGarmentSubCategories,
    refs: (r: R.Price) => [
      ["garment", r.garment_sub_category_id, "garment (garment_sub_category_id)"],
      ["action", r.action_id, "action"],
      ["price", r.is_percentage_of, "is_percentage_of"],
    ],
    read: { path: "/actionGarmentSubCategories/" },
  },
  { kind: "modifier", label: "modifiers", schema: R.Modifier, table: modifiers, refs: () => [], read: { path: "/modifiers/" } },
  // Ticket states: no spec route lists them; they come from the tickets (states.ts).
  {
    kind: "configuration",
    label: "workload configurations",
    schema: R.Configuration,
    table: configurations,
    refs: (r: R.Configuration) => [["action", r.action_id, "action"]],
    read: { path: "/configurations/" },
  },
  {
    kind: "pickup_delivery",
    label: "pickup/delivery settings",
    schema: R.PickupDelivery,
    table: pickupDeliveries,
    refs: (r: R.PickupDelivery) => ids(r.localities).map((l): Ref => ["locality", l, "localities"]),
    read: { path: "/pickupDeliveries/" },
  },
  {
    kind: "ticket",
    label: "tickets",
    schema: R.Ticket,
    table: tickets,
    refs: (t: R.Ticket) => [
      ["customer", t.customer_id, "customer"],
      ["agent", t.agent_id, "agent"],
      ["employee", t.employee_id, "employee"],
      ["address", t.pickup_address_id, "pickup address"],
      ["address", t.delivery_address_id, "delivery address"],
      ...t.ticket_sub_categories.flatMap((i): Ref[] => [
        ["garment", i.garment_sub_category_id, `item ${i.id}: garment`],
        ...i.actions.map((a): Ref => ["action", a.actionID, `item ${i.id}: action`]),
        ...i.modifiers.map((m): Ref => ["modifier", m.modifier_id, `item ${i.id}: modifier`]),
        ...i.log_states.map((l): Ref => ["employee", l.employee_id, `item ${i.id}: log employee`]),
      ]),
      ...t.ticket_log_states.flatMap((l): Ref[] => [
        ["employee", l.employee_id, "state log employee"],
        ["agent", l.agent_id, "state log agent"],
      ]),
    ],
    read: { paged: "/tickets/?withChildren=true" },
  },
];

/**
 * Records that point at others of their own kind (percentage prices and actions) come after
 * what they point at; a cycle is left in source order and refused by the reference check.
 */
export function dependencyOrder<T extends { id: number }>(records: T[], selfRef: (r: T) => number | null): T[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  const out: T[] = [];
  const state = new Map<number, 1 | 2>();
  const visit = (r: T, depth: number) => {
    if (state.get(r.id) || depth > 50) return;
    state.set(r.id, 1);
    const target = selfRef(r);
    const dep = target == null ? undefined : byId.get(target);
    if (dep && !state.get(dep.id)) visit(dep, depth + 1);
    state.set(r.id, 2);
    out.push(r);
  };
  for (const r of records) visit(r, 0);
  return out;
}
