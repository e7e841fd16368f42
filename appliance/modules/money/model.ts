// The payments module's contract (issue 24): payment rows, refunds, the drawer's day. Euros on the wire, cents inside.
import { z } from "zod";
import { euros, eurosTextUpTo, IsoDate, text } from "../../domain/schemas";
import { Approval } from "../approval/model";

export const TENDERS = ["cash", "card", "other", "account"] as const;
/**
 * What goes into the drawer: `account` (issue 34) charges a business account, no money changes
 * hands, so it is never expected in the drawer; the till shows it apart as "on account".
 */
export const DRAWER_TENDERS = ["cash", "card", "other"] as const;
/**
 * A tender is exactly one of its names: "CASH", "cash " and "cash\u0000" are refused (422), not
 * read as cash (issue 31). Control characters are not stripped from a token before it is
 * checked (http/validation: enumerated values are exact).
 */
export const Tender = z.enum(TENDERS);
export type Tender = z.infer<typeof Tender>;
/** How a ticket may be paid: a tender of the drawer, or the customer's deposit balance (issue 34, payments/deposits.ts). */
export const PAY_METHODS = [...TENDERS, "balance"] as const;
export const PayMethod = z.enum(PAY_METHODS);
export type PayMethod = z.infer<typeof PayMethod>;

/** The query the spec's pay routes take: `method` (default cash), and for cash what was handed over. */
export const PayQuery = z.object({
  method: PayMethod.optional(),
  tendered: eurosTextUpTo(1_000_000).optional(),
});

export const Payment = z.object({
  id: z.number(),
  ticket_id: z.number(),
  ticket_sub_category_id: z.number().nullable(),
  agent_id: z.number(),
  employee_id: z.number().nullable(),
  employee: z.string().nullable(),
  amount: z.number(),
  tender: PayMethod,
  tendered: z.number().nullable(),
  /** For cash handed over beyond the amount: what was given back. */
  change: z.number().nullable(),
  stop: z.string().nullable(),
  refund_of: z.number().nullable(),
  reason: z.string().nullable(),
  taken_at: z.string(),
  till_day: z.string(),
  approved_by: z.number().nullable(),
  /** Money the old system took, brought in by the import: history, in no drawer. */
  imported: z.boolean(),
});
export type Payment = z.infer<typeof Payment>;

export const PaymentsQuery = z
  .object({ ticket: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(), from: IsoDate.optional(), to: IsoDate.optional() })
  .refine((q) => q.ticket !== undefined || (q.from && q.to), "ticket, or from and to, are required")
  .refine((q) => !q.from || !q.to || q.from <= q.to, "from must not be after to");

export const RefundBody = z.object({
  amount: euros.refine((n) => n > 0, "must be more than 0"),
  reason: text(200).min(1, "a reason is required"),
  approval: Approval.optional(),
});

/** Per tender, in euros. */
export const ByTender = z.object({ cash: z.number(), card: z.number(), other: z.number() });
export type ByTender = z.infer<typeof ByTender>;

export const TillClose = z.object({
  counted: z.object({ cash: euros, card: euros, other: euros }),
  note: text(500).optional(),
});

export const TillDay = z.object({
  day: z.string(),
  agent_id: z.number(),
  expected: ByTender,
  payments: z.number().int(),
  refunds: z.number().int(),
  by_employee: z.array(z.object({ employee_id: z.number().nullable(), employee: z.string().nullable(), role: z.string().nullable(), cash: z.number() })),
  /** Payments taken on this calendar day after it closed: they count in the next open day. */
  moved_to_next_day: z.number(),
  /** Charged to business accounts this day (tender account): billed later, never in the drawer. */
  on_account: z.number(),
  closed: z
    .object({
      closed_at: z.string(),
      employee_id: z.number().nullable(),
      counted: ByTender,
      variance: ByTender,
      note: z.string(),
    })
    .nullable(),
  /** The deposit ledger on this day's drawer (issue 34), euros: taken and given back are in `expected` (money in the drawer); spent is not. */
  deposits: z.object({ taken: z.number(), given_back: z.number(), spent: z.number() }),
  /** Earlier closes of this day that an admin reopened. */
  reopened: z.array(z.object({ closed_at: z.string(), reopened_at: z.string(), reopened_by: z.number().nullable() })),
});
export type TillDay = z.infer<typeof TillDay>;

export const TillParams = z.object({ date: IsoDate });
export const TillQuery = z.object({ agent: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional() });

// Deposits (issue 34) have their shapes in depositModel.ts; the screens read them from here.
export * from "./depositModel";
