// The employees module's contract with the UI: staff records and their owings (money in euros).
import { z } from "zod";
import { ROLES } from "../../domain/people";
import { text } from "../../domain/schemas";
import { Pin } from "../auth/model";

export const EmployeeBody = z.object({
  agent_id: z.number().int().positive().optional(),
  full_name: text(100).min(1),
  mobile: text(30).optional(),
  landline: text(30).optional(),
  role: z.enum(ROLES),
  pin: Pin.optional(),
  enable_login: z.boolean().optional(),
  hq: z.boolean().optional(),
  localities: text(2000).optional(),
});
export type EmployeeInput = z.infer<typeof EmployeeBody>;

/** Locality ids to toggle: a bare list, or `{localities: [...]}`. */
export const LocalityToggleBody = z.union([
  z.array(z.number().int().positive()).max(500),
  z.object({ localities: z.array(z.number().int().positive()).max(500) }),
]);
/** Restoring an archived employee: their old PIN was freed, so a new one may come with it. */
export const RestoreBody = z.object({ pin: Pin.optional() });
export const ClearOwingsQuery = z.object({ close: z.enum(["true", "false"]).optional() });

/** Spec §3 employee owing: what a ticket owes the employee (driver's commission), in euros. */
export const Owing = z.object({
  id: z.number(),
  ticket_id: z.number(),
  employee_id: z.number(),
  ticket_sub_category_id: z.number().nullable(),
  amount: z.number(),
  /** Whole percent; received = amount × percentage / 100. */
  percentage: z.number(),
  received: z.number(),
  payment_date: z.string().nullable(),
  state: z.string(),
  paid_in_full: z.boolean(),
  employee_payment_date: z.string().nullable(),
});
export type Owing = z.infer<typeof Owing>;

/** An employee as the API answers it: never the PIN hash; accumulated and pending in euros. */
export const Employee = z.object({
  id: z.number(),
  agent_id: z.number(),
  full_name: z.string(),
  mobile: z.string(),
  landline: z.string(),
  role: z.enum(ROLES),
  pin_legacy: z.boolean(),
  accumulated: z.number(),
  pending: z.number(),
  enable_login: z.boolean(),
  hq: z.boolean(),
  /** Comma-separated locality ids (spec §3). */
  localities: z.string(),
  /** When the employee was archived (deleted with history), or null. */
  archived_at: z.string().nullable(),
  agent: z.object({ id: z.number(), name: z.string() }).optional(),
});
export type Employee = z.infer<typeof Employee>;
/** One employee; employees and drivers come with their open owings (spec §6). */
export const EmployeeDetail = Employee.extend({ employee_owings: z.array(Owing).optional() });
export type EmployeeDetail = z.infer<typeof EmployeeDetail>;

/**
 * A name to filter by (the State Logs employee filter, spec §2): every role that sees that
 * screen reads it, so it carries no contact details, PIN state or money. Disabled employees
 * stay listed: their state changes are still in the logs.
 */
export const EmployeeName = z.object({ id: z.number(), full_name: z.string(), agent_id: z.number(), agent: z.string() });
export type EmployeeName = z.infer<typeof EmployeeName>;
