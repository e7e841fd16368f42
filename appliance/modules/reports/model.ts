// The reports module's contract with the UI (spec §2 Reporting and Home statistics, §6 admin
// only, §7 the four CSV report calls, §9 dates and currency). The UI imports these types
// (type-only) and may read REPORT_COLUMNS' shape through `ReportColumn`; money in the home
// statistics is euros here (the route edge), cents in the service.
//
// How a report download behaves (the UI relies on it):
// - 200: the file streams (CSV: UTF-8 with BOM, RFC 4180, a header row then one record per
//   row; xlsx with `format=xlsx`). Content-Disposition names it "<Report> <from> <to>.csv"
//   with DD-MM-YYYY dates. There is no total up front: the UI counts the CSV records as they
//   arrive (an xlsx arrives compressed, so only its bytes can be shown).
// - 204 No Content: no rows for these filters (nothing to download; say so).
// - 403 not an admin; 422 names the field (a bad date, from after to, a bad id list).
// - Cancelling the download (closing the connection) stops the report on the box.
import { z } from "zod";
import { IsoDate } from "../../domain/schemas";

export const REPORT_NAMES = ["salesReport", "clientReport", "itemReport", "itemStateReport", "paymentsReport", "tillReport"] as const;
export type ReportName = (typeof REPORT_NAMES)[number];
export const REPORT_FORMATS = ["csv", "xlsx"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/**
 * Ids as repeated keys without brackets (spec §7: `actions=1&actions=2`); a comma-separated
 * value is taken too. None given (or an empty value) means every one.
 */
export const IdList = z
  .union([z.string().max(2000), z.array(z.string().max(2000)).max(500)])
  .transform((v) =>
    [v]
      .flat()
      .flatMap((s) => s.split(","))
      .map((s) => s.trim())
      .filter(Boolean)
      .map(Number),
  )
  .refine((a) => a.every((n) => Number.isSafeInteger(n) && n > 0), "must be ids (whole numbers)")
  .refine((a) => a.length <= 500, "must have at most 500 ids");

/**
 * Ticket states by id (the UI's filter) or by name, as the rest of the spec names them
 * (`states=PICKED UP`, `PUT /tickets/changeState {State}`); both may be mixed, repeated or
 * comma-separated. A name is matched without regard to case; one that is no state matches
 * nothing, like an unknown id.
 */
export const StateList = z
  .union([z.string().max(2000), z.array(z.string().max(2000)).max(500)])
  .transform((v) =>
    [v]
      .flat()
      .flatMap((s) => s.split(","))
      .map((s) => s.trim().replace(/\s+/g, " "))
      .filter(Boolean)
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s)),
  )
  .refine((a) => a.every((n) => typeof n === "string" || (Number.isSafeInteger(n) && n > 0)), "must be state ids or names")
  .refine((a) => a.every((n) => typeof n === "number" || n.length <= 60), "a state name has at most 60 characters")
  .refine((a) => a.length <= 500, "must have at most 500 states");

const range = {
  /** First Malta day of the report, inclusive. */
  from: IsoDate,
  /** Last Malta day of the report, inclusive. */
  to: IsoDate,
  format: z.enum(REPORT_FORMATS).default("csv"),
};
/** from ≤ to, reported on `from` (spec §5 names the field). */
const ordered = <T extends { from: string; to: string }>(q: T, ctx: z.RefinementCtx) => {
  // Only between two real days: a bad date is already named on its own.
  if (IsoDate.safeParse(q.from).success && IsoDate.safeParse(q.to).success && q.from > q.to)
    ctx.addIssue({ code: "custom", path: ["from"], message: "must not be after to" });
};

/** GET /tickets/csv/salesReport?from&to&actions (actions: ids of the catalogue's actions). */
export const SalesReportQuery = z.object({ ...range, actions: IdList.optional() }).superRefine(ordered);
/** GET /tickets/csv/clientReport?from&to */
export const ClientReportQuery = z.object(range).superRefine(ordered);
/**
 * GET /tickets/csv/itemReport?from&to&agents&states&actions&commission: agents are agent ids
 * (a shop's own only; another shop's id matches nothing), states are ticket state ids
 * (GET /ticketStates/) or names, commission a whole percent 0..100 (default 0).
 */
export const ItemReportQuery = z
  .object({
    ...range,
    agents: IdList.optional(),
    states: StateList.optional(),
    actions: IdList.optional(),
    commission: z.coerce.number().int("must be a whole number").min(0).max(100).default(0),
  })
  .superRefine(ordered);
/** GET /tickets/csv/itemStateReport?from&to&states&actions: state changes logged in the range (states: ids or names). */
export const ItemStateReportQuery = z.object({ ...range, states: StateList.optional(), actions: IdList.optional() }).superRefine(ordered);

/** GET /tickets/csv/paymentsReport?from&to&methods: payment and refund rows (methods: cash,card,other). */
export const PaymentsReportQuery = z
  .object({
    ...range,
    methods: z
      .string()
      .max(100)
      .transform((s) =>
        s
          .split(",")
          .map((m) => m.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(["cash", "card", "other"])))
      .optional(),
  })
  .superRefine(ordered);
/** GET /tickets/csv/tillReport?from&to: the drawer closes of the days. */
export const TillReportQuery = z.object(range).superRefine(ordered);

export type SalesReportQuery = z.infer<typeof SalesReportQuery>;
export type ClientReportQuery = z.infer<typeof ClientReportQuery>;
export type ItemReportQuery = z.infer<typeof ItemReportQuery>;
export type ItemStateReportQuery = z.infer<typeof ItemStateReportQuery>;
export type ReportQuery = (SalesReportQuery | ClientReportQuery | ItemReportQuery | ItemStateReportQuery) & {
  methods?: ("cash" | "card" | "other")[];
  actions?: number[];
  agents?: number[];
  states?: (number | string)[];
  commission?: number;
};

/**
 * How a column's cells are written. CSV: money "1234.50" (two decimals, a point, no currency
 * sign or grouping, a minus for negatives), dates DD-MM-YYYY, date-times "DD-MM-YYYY HH:mm"
 * Malta time, percent a whole number. xlsx: numbers and dates as typed cells.
 */
export type ColumnType = "text" | "int" | "money" | "percent" | "date" | "datetime";
export interface ReportColumn {
  header: string;
  type: ColumnType;
  /** Shown only in head-quarters reports (which cover every shop). */
  hqOnly?: boolean;
}

const col = (header: string, type: ColumnType = "text", hqOnly?: true): ReportColumn => (hqOnly ? { header, type, hqOnly } : { header, type });

/**
 * The columns of each report, in order. A sale counts on the Malta day its ticket was
 * confirmed (draft tickets are not sales); amounts include VAT at 18 % (spec §9), which the
 * VAT columns split out. Paid is what has been paid against those sales so far, Outstanding
 * the rest. Takings is the money of that till day (the drawers' figure, whatever day the
 * ticket was sold), so a day's Takings equal its drawer and the home statistics (issue 31).
 */
export const REPORT_COLUMNS: Record<ReportName, readonly ReportColumn[]> = {
  // One row per day, shop and action. An item with several actions shares its amounts between
  // them by their list prices; pickup and delivery charges are the row "Pickup & delivery".
  salesReport: [
    col("Date", "date"),
    col("Shop", "text", true),
    col("Action"),
    col("Items", "int"),
    col("Gross", "money"),
    col("Discounts", "money"),
    col("Net", "money"),
    col("Net excl. VAT", "money"),
    col("VAT 18%", "money"),
    col("Paid", "money"),
    col("Outstanding", "money"),
    col("Takings", "money"),
  ],
  // One row per customer with tickets confirmed in the range; visits are within the range.
  clientReport: [
    col("Customer ID", "int"),
    col("Customer"),
    col("Mobile"),
    col("Shop", "text", true),
    col("Tickets", "int"),
    col("Items", "int"),
    col("Spent", "money"),
    col("Paid", "money"),
    col("Owed", "money"),
    col("First visit", "date"),
    col("Last visit", "date"),
  ],
  // One row per item of the tickets confirmed in the range.
  itemReport: [
    col("Item ID", "int"),
    col("Ticket ID", "int"),
    col("Date", "date"),
    col("Shop", "text", true),
    col("Customer"),
    col("State"),
    col("Garment"),
    col("Description"),
    col("Actions"),
    col("Quantity", "int"),
    col("Express"),
    col("Price", "money"),
    col("Total", "money"),
    col("Paid", "money"),
    col("Commission %", "percent"),
    col("Commission", "money"),
  ],
  // One row per item state change logged in the range.
  itemStateReport: [
    col("Item ID", "int"),
    col("Ticket ID", "int"),
    col("Garment"),
    col("Description"),
    col("State"),
    col("When", "datetime"),
    col("Employee"),
    col("Shop", "text", true),
    col("Note"),
  ],
  // One row per payment or refund (negative), on the Malta day and time it was taken.
  paymentsReport: [
    col("Date", "date"),
    col("Time"),
    col("Till day", "date"),
    col("Shop", "text", true),
    col("Ticket ID", "int"),
    col("Item ID", "int"),
    col("Tender"),
    col("Amount", "money"),
    col("Tendered", "money"),
    col("Change", "money"),
    col("Employee"),
    col("Refund of", "int"),
    col("Reason"),
  ],
  // One row per drawer close (a reopened close stays, with when it was reopened).
  tillReport: [
    col("Date", "date"),
    col("Shop", "text", true),
    col("Expected cash", "money"),
    col("Counted cash", "money"),
    col("Variance cash", "money"),
    col("Expected card", "money"),
    col("Counted card", "money"),
    col("Variance card", "money"),
    col("Expected other", "money"),
    col("Counted other", "money"),
    col("Variance other", "money"),
    col("Closed at", "datetime"),
    col("Closed by"),
    col("Note"),
    col("Reopened at", "datetime"),
  ],
};

/** File names (Content-Disposition): "<title> DD-MM-YYYY DD-MM-YYYY.<format>". */
export const REPORT_TITLES: Record<ReportName, string> = {
  salesReport: "Sales report",
  clientReport: "Client report",
  itemReport: "Item report",
  itemStateReport: "Item state report",
  paymentsReport: "Payments report",
  tillReport: "Till report",
};

// ---------------------------------------------------------------- home statistics

/**
 * A period's money and counts (euros). Sales are the totals of the tickets confirmed in it;
 * paid is what has been paid against them so far; outstanding the rest. Takings are the money
 * taken in the period (payment rows, refunds less: one definition everywhere), by tender.
 */
export const PeriodFigures = z.object({
  from: IsoDate,
  to: IsoDate,
  tickets: z.number(),
  items: z.number(),
  express_items: z.number(),
  sales: z.number(),
  paid: z.number(),
  outstanding: z.number(),
  takings: z.number(),
  cash: z.number(),
  card: z.number(),
  other: z.number(),
});
export type PeriodFigures = z.infer<typeof PeriodFigures>;

const Periods = z.object({ today: PeriodFigures, week: PeriodFigures, month: PeriodFigures });

/** A ranked name with its count of items this month and their value (euros): garments their items' totals, actions their lines' list prices. */
export const Ranked = z.object({ name: z.string(), items: z.number(), total: z.number() });
export type Ranked = z.infer<typeof Ranked>;

/**
 * GET /statistics/home (admin only; the shop's own figures, head quarters' over every shop).
 * Weeks run Sunday to Saturday as in the scheduler; months are calendar months; days are Malta's.
 */
export const HomeStatistics = z.object({
  /** Today's Malta day. */
  day: IsoDate,
  /** "chain" for head quarters (every shop), "shop" for a shop's own. */
  scope: z.enum(["chain", "shop"]),
  periods: Periods,
  /** The pipeline now: confirmed tickets not yet CLOSED, by state, in the states' order. */
  tickets_by_state: z.array(z.object({ state: z.string(), tickets: z.number() })),
  /** Items of tickets due for delivery today, and due before today, not yet delivered or closed. */
  items_due_today: z.number(),
  items_overdue: z.number(),
  /** Express items not yet delivered or closed. */
  express_open: z.number(),
  /** This month's top 10 garments and actions by items. */
  top_garments: z.array(Ranked),
  top_actions: z.array(Ranked),
  /** Head quarters only: every shop's periods side by side (null for a shop). */
  shops: z.array(z.object({ agent_id: z.number(), name: z.string(), periods: Periods })).nullable(),
});
export type HomeStatistics = z.infer<typeof HomeStatistics>;
