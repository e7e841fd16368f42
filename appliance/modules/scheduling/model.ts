// The scheduling module's contract with the UI: what its routes take and answer (spec §3
// Configuration, Pickup/delivery setting, Schedule statistics per day, Weekly statistics,
// Workload statistic, Action workload, Simple ticket). The UI imports these types
// (type-only) from here. Money is euros here (the route edge); the service speaks cents.
// Spec §8's toasts ('Configuration Created!', 'Configuration Updated!', 'Configuration
// Removed', 'Configuration saved.', 'Settings saved.') are the UI's: the API answers data.
import { z } from "zod";
import { IsoDate } from "../../domain/schemas";
import { MONTHS, SEASONS, weeksInYear } from "../../domain/schedule";

/** Spec §9: months in upper case (a client may send any case). */
export const Month = z.string().trim().toUpperCase().pipe(z.enum(MONTHS));
export const Season = z.enum(SEASONS);

const MAX_AMOUNT = 100_000;
/** Spec §5: a workload amount is a whole number ≥ 0; negatives become 0 (and huge ones the cap). */
const amount = z
  .number()
  .finite()
  .transform((n) => Math.min(MAX_AMOUNT, Math.max(0, Math.round(n))));

/** Seven amounts Sunday..Saturday: an array, or spec §3's text "1,2,3,4,5,6,7". */
export const Amounts = z.union(
  [
    z.array(amount).length(7),
    z
      .string()
      .max(200)
      .transform((s, ctx) => {
        const parts = s.split(",").map((p) => p.trim());
        const nums = parts.map(Number);
        if (parts.length !== 7 || parts.some((p) => p === "") || nums.some((n) => !Number.isFinite(n))) {
          ctx.addIssue({ code: "custom", message: "must be seven comma-separated numbers, Sunday to Saturday" });
          return z.NEVER;
        }
        return nums.map((n) => Math.min(MAX_AMOUNT, Math.max(0, Math.round(n))));
      }),
  ],
  { error: "must be seven numbers, Sunday to Saturday (an array, or text separated by commas)" },
);

export const ConfigurationBody = z.object({
  month: Month,
  action_id: z.number().int().positive(),
  amounts: Amounts,
});
export type ConfigurationBody = z.input<typeof ConfigurationBody>;
export const ConfigurationPatch = ConfigurationBody.partial();
export type ConfigurationPatch = z.input<typeof ConfigurationPatch>;

export const Configuration = z.object({
  id: z.number(),
  month: z.enum(MONTHS),
  action_id: z.number(),
  action: z.string(),
  /** Spec §3: seven comma-separated numbers, Sunday to Saturday. */
  amounts: z.string(),
  /** The same seven numbers as an array (index = day_of_week). */
  per_day: z.array(z.number()).length(7),
});
export type Configuration = z.infer<typeof Configuration>;

/** Month-day "MM-DD" (spec §4: seasons compare month-day); empty means none. */
const MonthDay = z
  .string()
  .trim()
  .regex(/^(\d{2}-\d{2})?$/, "must be a month-day MM-DD")
  .refine(
    (s) =>
      !s ||
      (+s.slice(0, 2) >= 1 && +s.slice(0, 2) <= 12 && +s.slice(3) >= 1 && +s.slice(3) <= [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][+s.slice(0, 2) - 1]!),
    "must be a real month-day",
  )
  .transform((s) => s || null);

/** Locality ids: an array, or text separated by ';' or ',' (spec §3 shows both). */
export const LocalityIds = z.union(
  [
    z.array(z.number().int().positive()).max(500),
    z
      .string()
      .max(4000)
      .transform((s, ctx) => {
        const parts = s
          .split(/[;,]/)
          .map((p) => p.trim())
          .filter(Boolean);
        if (parts.some((p) => !/^\d{1,12}$/.test(p) || +p <= 0)) {
          ctx.addIssue({ code: "custom", message: "must be locality ids separated by ';' or ','" });
          return z.NEVER;
        }
        return parts.map(Number);
      }),
  ],
  { error: "must be locality ids (an array, or text separated by ';' or ',')" },
);

export const PickupDeliveryInput = z.object({
  /** Ignored: saving replaces every setting. */
  id: z.number().optional(),
  season: Season,
  from: MonthDay.nullish(),
  to: MonthDay.nullish(),
  day_of_week: z.number().int().min(0).max(6),
  /** Stops each listed locality takes that day; negatives become 0. */
  quantity: z
    .number()
    .finite()
    .transform((n) => Math.min(MAX_AMOUNT, Math.max(0, Math.round(n)))),
  localities: LocalityIds,
});
/** POST /pickupDeliveries/: the whole list, which replaces every setting. */
export const PickupDeliveriesBody = z.array(PickupDeliveryInput).max(2000);
export type PickupDeliveryInput = z.input<typeof PickupDeliveryInput>;

export const PickupDelivery = z.object({
  id: z.number(),
  season: Season,
  from: z.string().nullable(),
  to: z.string().nullable(),
  day_of_week: z.number(),
  quantity: z.number(),
  /** Spec §3: semicolon-separated locality ids. */
  localities: z.string(),
  locality_ids: z.array(z.number()),
});
export type PickupDelivery = z.infer<typeof PickupDelivery>;

/** Spec §9 load colours. */
export const Colour = z.enum(["green", "orange", "red"]);
export type Colour = z.infer<typeof Colour>;

/** {week}/{year} path: weeks 1..52, or 53 in a 53-week year (domain/schedule.ts maps them to days); years 2000..2100. */
export const WeekParams = z
  .object({
    week: z.coerce.number().int().min(1).max(53),
    year: z.coerce.number().int().min(2000).max(2100),
  })
  // zod still runs this when a field failed: only a valid year has a number of weeks.
  .refine((p) => !Number.isInteger(p.year) || p.year < 2000 || p.year > 2100 || p.week <= weeksInYear(p.year), {
    message: "this year has 52 weeks",
    path: ["week"],
  });

/** Spec §9: the scheduler asks 10 tickets a day, 20 from the week button, 9999999999 in day views. */
export const ScheduleQuery = z.object({
  limit: z.coerce.number().int().min(0).max(9_999_999_999).default(10),
  /** Only this day's tickets (the day view); the counts still cover the week. */
  date: IsoDate.optional(),
  type: z.enum(["pickups", "deliveries"]).optional(),
});

const SimpleAddress = z.object({ name: z.string(), number: z.string(), street: z.string(), locality: z.string(), locality_id: z.number() }).nullable();

/** Spec §3 Simple ticket (scheduler). */
export const SimpleTicket = z.object({
  id: z.number(),
  customer_id: z.number(),
  customer_full_name: z.string(),
  customer_contact: z.string(),
  state: z.string(),
  pickup_date: z.string().nullable(),
  delivery_date: z.string().nullable(),
  pickup_from_client: z.boolean(),
  delivery_to_client: z.boolean(),
  pickup_address: SimpleAddress,
  delivery_address: SimpleAddress,
  pickup_comment: z.string(),
  delivery_comment: z.string(),
  agent_name: z.string(),
  detail: z.string(),
  sub_category_ids: z.array(z.number()),
  total: z.number(),
  total_paid: z.number(),
});
export type SimpleTicket = z.infer<typeof SimpleTicket>;

export const LocalityLoad = z.object({
  id: z.number(),
  name: z.string(),
  capacity: z.number(),
  assigned_pickups: z.number(),
  assigned_deliveries: z.number(),
  colour: Colour,
});

/** Spec §3 Schedule statistics per day (counts are chain-wide; tickets are the caller's shop's, HQ all). */
export const ScheduleDay = z.object({
  date: z.string(),
  day_of_week: z.number(),
  capacity: z.number(),
  assigned_deliveries: z.number(),
  assigned_pickups: z.number(),
  colour: Colour,
  localities: z.array(LocalityLoad),
  tickets: z.array(SimpleTicket),
  /** How many tickets the day has in all (tickets holds at most `limit`). */
  ticket_count: z.number(),
});
export type ScheduleDay = z.infer<typeof ScheduleDay>;
export const ScheduleWeek = z.array(ScheduleDay);

/** Spec §3 Workload statistic: one action's load on one day. */
export const WorkloadDay = z.object({
  date: z.string(),
  day_of_week: z.number(),
  capacity: z.number(),
  assigned: z.number(),
  colour: Colour,
  /** The caller's shop's items processed that day (HQ: all), at most `limit`. */
  ticket_sub_categories: z.array(z.object({ TicketID: z.number(), ItemID: z.number(), Detail: z.string(), Description: z.string() })),
});
/** Spec §3 Action workload. */
export const ActionWorkload = z.object({ action_id: z.number(), action: z.string(), days: z.array(WorkloadDay) });
export type ActionWorkload = z.infer<typeof ActionWorkload>;
export const ActionWorkloadWeek = z.array(ActionWorkload);
export const WorkloadQuery = z.object({ limit: z.coerce.number().int().min(0).max(9_999_999_999).default(10) });

/** Spec §3 Weekly statistics: this week's plant load per action and day (the ticket view's Process Feedback). */
export const WeeklyStat = z.object({
  month: z.enum(MONTHS),
  action_id: z.number(),
  action: z.string(),
  date: z.string(),
  day_of_week: z.number(),
  amount_left: z.number(),
  amount_accepted: z.number(),
  total_amount: z.number(),
  colour: Colour,
});
export type WeeklyStat = z.infer<typeof WeeklyStat>;
export const WeeklyStats = z.array(WeeklyStat);

const ids = z.union([z.coerce.number().int().positive(), z.array(z.coerce.number().int().positive()).max(100)]).transform((v) => [v].flat());

/** GET /schedule/availability (beyond the spec): the counter's date pickers and date proposal. */
export const AvailabilityQuery = z.object({
  locality: z.coerce.number().int().positive(),
  /** First day listed (default today, Malta). */
  from: IsoDate.optional(),
  days: z.coerce.number().int().min(1).max(92).default(31),
  /** The default date the proposal starts from (default `from`): 7 days out, or the express offset. */
  default_date: IsoDate.optional(),
  /** The ticket's actions: the proposal also needs plant capacity left for each. */
  actions: ids.optional(),
});
export const AvailabilityDay = z.object({
  date: z.string(),
  day_of_week: z.number(),
  /** The locality's pickup/delivery capacity that day and what is booked (pickups + deliveries, every shop). */
  capacity: z.number(),
  assigned: z.number(),
  left: z.number(),
  colour: Colour,
  /** Plant capacity left per requested action; null where the month has no configuration (no limit). */
  plant: z.array(z.object({ action_id: z.number(), capacity: z.number().nullable(), assigned: z.number(), left: z.number().nullable() })),
  /** Room for a stop and plant capacity for every requested action. */
  ok: z.boolean(),
});
export const Availability = z.object({
  locality_id: z.number(),
  days: z.array(AvailabilityDay),
  /** The first day at or after default_date with room (searched up to a year ahead); null if none. */
  proposed: z.string().nullable(),
});
export type Availability = z.infer<typeof Availability>;

/** GET /schedule/run (beyond the spec): one driver's stops for a day. `driver` defaults to the caller. */
export const RunQuery = z.object({ date: IsoDate, driver: z.coerce.number().int().positive().optional() });
export const RunStop = z.object({
  kind: z.enum(["pickup", "delivery"]),
  ticket_id: z.number(),
  state: z.string(),
  customer_id: z.number(),
  customer_full_name: z.string(),
  mobile: z.string(),
  landline: z.string(),
  address: z.string(),
  locality: z.string(),
  street: z.string(),
  comments: z.string(),
  /** Euros still owed on the ticket. */
  amount_due: z.number(),
  /** What to collect or deliver: the items' descriptions with quantities. */
  items: z.array(z.object({ id: z.number(), description: z.string(), quantity: z.number(), pieces: z.string() })),
  /** The customer answered YES to the pickup reminder (a SKIP takes the stop off the run). */
  confirmed: z.boolean(),
});
export type RunStop = z.infer<typeof RunStop>;
export const Run = z.object({
  date: z.string(),
  driver: z.object({ id: z.number(), full_name: z.string(), locality_ids: z.array(z.number()) }),
  stops: z.array(RunStop),
});
export type Run = z.infer<typeof Run>;
