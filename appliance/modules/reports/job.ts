/** What the box sends a report process (child.ts), and how that process ends. */
import type { ColumnType, ReportFormat, ReportName, ReportQuery } from "./model";
import type { Scope } from "./queries";

export interface DbTarget {
  url: string;
  authToken?: string;
}
export type Job =
  | {
      kind: "report";
      db: DbTarget;
      name: ReportName;
      query: ReportQuery;
      scope: Scope;
      format: ReportFormat;
      title: string;
      headers: string[];
      types: ColumnType[];
    }
  | { kind: "home"; db: DbTarget; day: string; agents: number[] | null };
/** Exit codes. */
export const EXIT = { done: 0, failed: 1, empty: 3 } as const;
