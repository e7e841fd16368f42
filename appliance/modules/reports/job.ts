/** What the box sends a report process (child.ts), and how that process ends. */
import type { ColumnType, ReportFormat, ReportName, ReportQuery } from "./model";
import type { Scope } from "./queries";

export interface DbTarget {
  url: string;
  authToken?: string;
  /** A site's copy at head quarters (issue 15): its rows lead with this name, a Site column. */
  site?: string;
}
export type Job = (
  | {
      kind: "report";
      /** Read one after the other, into one file. */
      dbs: DbTarget[];
      name: ReportName;
      query: ReportQuery;
      scope: Scope;
      format: ReportFormat;
      title: string;
      headers: string[];
      types: ColumnType[];
    }
  /** Answers the statistics of each database, in order (a JSON array). */
  | { kind: "home"; dbs: DbTarget[]; day: string; agents: number[] | null }
) & {
  /**
   * The shop's zone when the job was asked for (issue 31): the box's setting reaches the
   * child with the job, whatever environment the child inherited.
   */
  timeZone?: string;
};
/** Exit codes. */
export const EXIT = { done: 0, failed: 1, empty: 3 } as const;
