/**
 * What a report producer is made of, shared by the reports module and the modules whose tables
 * have reports of their own (money's payments and till reports, issue 31). Types only: they live
 * here, below both, so that money's producers need nothing of reports and reports asks money.
 */

/** A raw cell by column type: text a string, int/percent a number, money integer cents, a day "YYYY-MM-DD", an instant UTC ISO. */
export type Cell = string | number | null;

/** A read-only connection: the rows of a query as arrays, in column order. */
export interface Source {
  values(sql: string, args: (string | number | null)[]): Promise<unknown[][]>;
}

/** Who the report is for: every shop (`agents` null, a Shop column) or some shops. */
export interface Scope {
  agents: number[] | null;
  hq: boolean;
}

/** A report: rows in batches (raw values by the model's column types, Shop column included only for HQ). */
export type Producer = AsyncGenerator<Cell[][]>;

/** A report's days, first and last inclusive (shop days "YYYY-MM-DD"). */
export interface ReportRange {
  from: string;
  to: string;
}
