/**
 * The reports by name. Each lives in its own file: sales.ts (sales, clients), items.ts (items,
 * item state changes), the money module's reports.ts (payments, drawer closes); home.ts has
 * the home statistics, source.ts what they all share. They run in the report worker, never on
 * the request thread. Money is integer cents throughout.
 */
import type { ReportName, ReportQuery } from "./model";
import { paymentsReport, tillReport } from "../money/reports";
import { itemReport, itemStateReport } from "./items";
import { clientReport, salesReport } from "./sales";
import type { Producer, Scope, Source } from "./source";

export { type HomeCents, homeStatistics, sumHome } from "./home";
export { allocate, type Producer, type Scope, type Source } from "./source";

export const REPORTS: Record<ReportName, (src: Source, q: ReportQuery, scope: Scope) => Producer> = {
  salesReport,
  clientReport,
  itemReport,
  itemStateReport,
  // Money owns its tables and their reports; reports asks it (issue 31: no circle).
  paymentsReport,
  tillReport,
};
