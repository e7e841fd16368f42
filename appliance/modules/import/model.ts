import { z } from "zod";

/** The answers of /import/ (the UI and the contract test read these shapes). */
export const ImportProgress = z.object({
  step: z.string(),
  done: z.number().int(),
  total: z.number().int(),
  percent: z.number().int(),
  seconds_left: z.number().int().nullable(),
});

const KindCounts = z.object({
  read: z.number().int(),
  new: z.number().int(),
  changed: z.number().int(),
  unchanged: z.number().int(),
  refused: z.number().int(),
});

export const ImportReportView = z.object({
  run_id: z.number().int().nullable(),
  source: z.string(),
  dry_run: z.boolean(),
  started_at: z.string(),
  finished_at: z.string(),
  seconds: z.number(),
  requests: z.number().int(),
  kinds: z.record(z.string(), KindCounts),
  refusals: z.array(z.object({ kind: z.string(), id: z.number().int().nullable(), reason: z.string() })),
  refusals_not_listed: z.number().int(),
  /** HQ flags and roles the old system gave that this box did not take: privileges are the box's own. */
  skipped: z.array(
    z.object({
      kind: z.enum(["agent", "employee"]),
      id: z.number().int(),
      field: z.enum(["is_hq", "hq", "role"]),
      source: z.union([z.boolean(), z.string()]),
      kept: z.union([z.boolean(), z.string()]),
    }),
  ),
  money: z.object({
    tickets: z.number().int(),
    total_cents: z.number().int(),
    paid_cents: z.number().int(),
    equal_to_source: z.boolean(),
    refused_for_money: z.number().int(),
  }),
  totals: z
    .object({ ok: z.boolean(), count: z.number().int(), message: z.string() })
    .nullable()
    .optional()
    .describe("After the run, every paid total of the box against its payment rows; null for a dry run"),
});

export const ImportStatusView = z.object({
  state: z.enum(["idle", "running", "done", "failed"]),
  source: z.string().nullable(),
  dry_run: z.boolean(),
  progress: ImportProgress.nullable(),
  report: ImportReportView.nullable(),
  error: z.string().nullable(),
  /** New employees' PINs: given once, to the admin who started the import. */
  pins: z.array(z.object({ employee_id: z.number().int(), full_name: z.string(), agent_id: z.number().int(), pin: z.string() })),
});
export type ImportStatusView = z.infer<typeof ImportStatusView>;
