import type { z } from "zod";
import { toEuros } from "../../domain/money";
import { route } from "../../http/route";
import { SECURITY_HEADERS } from "../../http/security";
import {
  ClientReportQuery,
  HomeStatistics,
  ItemReportQuery,
  ItemStateReportQuery,
  type PeriodFigures,
  type ReportName,
  type ReportQuery,
  PaymentsReportQuery,
  SalesReportQuery,
  TillReportQuery,
} from "./model";
import type { HomeCents } from "./queries";
import type { ReportFile, ReportService } from "./service";

/** Spec §6: reports and home statistics are the admin's. */
const ADMIN = { roles: ["admin"] } as const;

export const REPORT_QUERIES: Record<ReportName, z.ZodType<ReportQuery>> = {
  salesReport: SalesReportQuery,
  clientReport: ClientReportQuery,
  itemReport: ItemReportQuery,
  itemStateReport: ItemStateReportQuery,
  paymentsReport: PaymentsReportQuery,
  tillReport: TillReportQuery,
};
export const REPORT_SUMMARIES: Record<ReportName, string> = {
  salesReport: "Sales per day, shop and action: items, gross, discounts, net, VAT 18 %, paid, outstanding (CSV, or xlsx with format=xlsx; 204 when empty)",
  clientReport: "Per customer: tickets, items, spent, paid, owed, first and last visit in the range (CSV or xlsx; 204 when empty)",
  itemReport:
    "Per item: ticket, date, shop, customer, state, garment, actions, price, total, paid and commission at a whole percent (CSV or xlsx; 204 when empty)",
  itemStateReport: "Per item state change: item, ticket, garment, state, when, employee, shop, note (CSV or xlsx; 204 when empty)",
  paymentsReport:
    "Per payment or refund: date, time, shop, ticket, item, tender, amount, tendered, change, employee, refund of, reason; ?methods=cash,card,other (CSV or xlsx; 204 when empty)",
  tillReport: "Per drawer close: day, shop, expected, counted and variance per tender, closed at and by, note, reopened (CSV or xlsx; 204 when empty)",
};

/** RFC 6266: a plain ASCII name, and the exact one encoded. */
const disposition = (name: string) => `attachment; filename="${name.replace(/[^\w .-]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(name)}`;

/** A report as the answer: the file streaming, or 204 when it has no rows. */
export function fileResponse(file: ReportFile): Response {
  if (file.kind === "empty") return new Response(null, { status: 204, headers: SECURITY_HEADERS });
  return new Response(file.body, {
    headers: { ...SECURITY_HEADERS, "content-type": file.contentType, "content-disposition": disposition(file.filename), "cache-control": "no-store" },
  });
}

const periodEuros = (p: HomeCents["periods"]["today"]): PeriodFigures => ({
  ...p,
  sales: toEuros(p.sales),
  paid: toEuros(p.paid),
  outstanding: toEuros(p.outstanding),
  takings: toEuros(p.takings),
  cash: toEuros(p.cash),
  card: toEuros(p.card),
  other: toEuros(p.other),
});
const periodsEuros = (p: HomeCents["periods"]) => ({ today: periodEuros(p.today), week: periodEuros(p.week), month: periodEuros(p.month) });
const rankedEuros = (r: HomeCents["top_garments"]) => r.map((x) => ({ ...x, total: toEuros(x.total) }));

/** The home figures in euros; `shops` adds each shop's periods (head quarters' view). */
export function homeEuros(s: HomeCents, scope: HomeStatistics["scope"], shops: boolean): HomeStatistics {
  return {
    day: s.day,
    scope,
    periods: periodsEuros(s.periods),
    tickets_by_state: s.tickets_by_state,
    items_due_today: s.items_due_today,
    items_overdue: s.items_overdue,
    express_open: s.express_open,
    top_garments: rankedEuros(s.top_garments),
    top_actions: rankedEuros(s.top_actions),
    shops: shops ? s.byAgent.map((a) => ({ agent_id: a.agent_id, name: a.name, periods: periodsEuros(a.periods) })) : null,
  };
}

export function reportRoutes(reports: ReportService) {
  return [
    ...(Object.keys(REPORT_QUERIES) as ReportName[]).map((name) =>
      route({
        method: "GET",
        path: `/tickets/csv/${name}`,
        tag: "reports",
        summary: REPORT_SUMMARIES[name],
        access: ADMIN,
        query: REPORT_QUERIES[name],
        raw: true,
        handler: async ({ caller, query, request }) => fileResponse(await reports.report(caller, name, query, request.signal)),
      }),
    ),
    route({
      method: "GET",
      path: "/statistics/home",
      tag: "reports",
      summary:
        "The admin home: today, this week and this month (takings, paid, outstanding, tickets, items, express), the pipeline by state, items due and overdue, top garments and actions; head quarters also per shop",
      access: ADMIN,
      response: HomeStatistics,
      handler: async ({ caller }): Promise<HomeStatistics> => homeEuros(await reports.home(caller), caller.agent.is_hq ? "chain" : "shop", caller.agent.is_hq),
    }),
  ];
}
