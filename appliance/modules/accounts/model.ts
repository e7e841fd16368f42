// The accounts module's contract (issue 34): business accounts billed for their tickets,
// invoices, credit notes, payments on account, statements and the aged report. Euros on the
// wire (the one "euros to the cent" schema), cents inside.
import { z } from "zod";
import { euros, IsoDate, text } from "../../domain/schemas";
import { SITE_NAME } from "../../domain/sites";
import { Approval } from "../approval/model";

export const PAYMENT_METHODS = ["bank_transfer", "card", "cash", "cheque"] as const;
/** A site's name as HQ's chain knows it (HQ mode): `?site=` reads that site's restored copy. */
const SiteName = z.string().regex(SITE_NAME, "must be lower-case letters, digits and dashes");
const id = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const email = z
  .string()
  .trim()
  .max(200)
  .refine((s) => s === "" || /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/.test(s), "must be an e-mail address");

export const AccountInput = z.object({
  name: text(120).min(1, "a name is required"),
  customer_ids: z.array(id).max(500).default([]),
  billing_contact: text(120).default(""),
  email: email.default(""),
  vat_number: text(40)
    .regex(/^[A-Za-z0-9 -]*$/, "letters, digits, spaces and dashes only")
    .default(""),
  terms_days: z.number().int().min(0).max(365).default(30),
  credit_limit: euros.default(0),
  discount: z.number().int().min(0).max(100).nullable().default(null),
  /** HQ names the billing shop; anyone else's account is their own shop's. */
  agent_id: id.optional(),
});
export type AccountInput = z.infer<typeof AccountInput>;

export const Account = z.object({
  id: z.number(),
  agent_id: z.number(),
  /** The billing shop's name (HQ's list shows every shop's accounts). */
  agent_name: z.string(),
  name: z.string(),
  customer_ids: z.array(z.number()),
  /** The same customers with their names and mobiles, as the screens show them. */
  customers: z.array(z.object({ id: z.number(), full_name: z.string(), mobile: z.string() })),
  billing_contact: z.string(),
  email: z.string(),
  vat_number: z.string(),
  terms_days: z.number(),
  credit_limit: z.number(),
  discount: z.number().nullable(),
  /** The sum of its rows: charges less payments and credit notes (euros). */
  balance: z.number(),
  created_at: z.string(),
});
export type Account = z.infer<typeof Account>;

/** A ticket charged to an account (its charge rows summed), and the invoice that billed it, if any. */
export const ChargedTicket = z.object({
  ticket_id: z.number(),
  amount: z.number(),
  /** When it was first charged (UTC). */
  at: z.string(),
  invoice_id: z.number().nullable(),
  invoice_number: z.string().nullable(),
});
export type ChargedTicket = z.infer<typeof ChargedTicket>;

export const AccountsQuery = z.object({ agent: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional() });

export const InvoiceInput = z.object({ from: IsoDate, to: IsoDate }).refine((b) => b.from <= b.to, "from must not be after to");

export const InvoiceLine = z.object({
  ticket_id: z.number(),
  ticket_sub_category_id: z.number().nullable(),
  description: z.string(),
  vat_rate: z.number(),
  net: z.number(),
  vat: z.number(),
  gross: z.number(),
});
export const VatRow = z.object({ rate: z.number(), net: z.number(), vat: z.number(), gross: z.number() });

export const CreditNote = z.object({
  id: z.number(),
  number: z.string(),
  invoice_id: z.number(),
  invoice_number: z.string(),
  amount: z.number(),
  reason: z.string(),
  issued_on: z.string(),
});
export type CreditNote = z.infer<typeof CreditNote>;

/** A payment on account or a credit note settling part of an invoice, in date order. */
export const InvoiceAllocation = z.object({
  kind: z.enum(["payment", "credit_note"]),
  /** The payment on account's id, or the credit note's. */
  id: z.number(),
  /** The shop day it was received or issued. */
  date: z.string(),
  amount: z.number(),
  /** A payment's method (null for a credit note). */
  method: z.enum(PAYMENT_METHODS).nullable(),
  /** A payment's reference, or the credit note's number. */
  reference: z.string(),
});
export type InvoiceAllocation = z.infer<typeof InvoiceAllocation>;

export const Invoice = z.object({
  id: z.number(),
  number: z.string(),
  agent_id: z.number(),
  account_id: z.number(),
  account_name: z.string(),
  vat_number: z.string(),
  period_from: z.string(),
  period_to: z.string(),
  issued_on: z.string(),
  due_on: z.string(),
  lines: z.array(InvoiceLine),
  vat: z.array(VatRow),
  net: z.number(),
  vat_total: z.number(),
  total: z.number(),
  credited: z.number(),
  paid: z.number(),
  /** What it still asks: total less credit notes and payments allocated to it. */
  open: z.number(),
  credit_notes: z.array(CreditNote),
  /** What settled it: payments allocated to it and its credit notes; `open` is the total less these. */
  allocations: z.array(InvoiceAllocation),
  sent: z.array(z.object({ message_id: z.number(), recipient: z.string(), status: z.string(), at: z.string() })),
});
export type Invoice = z.infer<typeof Invoice>;

export const InvoiceSummary = Invoice.omit({ lines: true, vat: true, credit_notes: true, allocations: true, sent: true });

export const CreditInput = z.object({
  amount: euros.refine((n) => n > 0, "must be more than 0"),
  reason: text(200).min(1, "a reason is required"),
});

export const PaymentInput = z.object({
  amount: euros.refine((n) => n > 0, "must be more than 0"),
  method: z.enum(PAYMENT_METHODS),
  reference: text(80).default(""),
  /** Which invoices it settles and how much of each; absent: the oldest open invoices first. */
  allocations: z
    .array(z.object({ invoice_id: id, amount: euros.refine((n) => n > 0, "must be more than 0") }))
    .max(200)
    .optional(),
});

export const AccountPayment = z.object({
  id: z.number(),
  account_id: z.number(),
  amount: z.number(),
  method: z.enum(PAYMENT_METHODS),
  reference: z.string(),
  received_on: z.string(),
  allocations: z.array(z.object({ invoice_id: z.number(), invoice_number: z.string(), amount: z.number() })),
  /** What no invoice took: credit on the account. */
  unallocated: z.number(),
});

export const PeriodQuery = z
  .object({ from: IsoDate, to: IsoDate, format: z.enum(["json", "csv"]).optional(), site: SiteName.optional() })
  .refine((q) => q.from <= q.to, "from must not be after to");

export const StatementLine = z.object({
  date: z.string(),
  kind: z.enum(["invoice", "credit_note", "payment"]),
  reference: z.string(),
  /** + what the account owes more, − what it paid or was credited. */
  amount: z.number(),
  balance: z.number(),
});
export const Statement = z.object({
  account_id: z.number(),
  account_name: z.string(),
  from: z.string(),
  to: z.string(),
  opening_balance: z.number(),
  lines: z.array(StatementLine),
  closing_balance: z.number(),
  /** Charged on tickets up to `to` and not yet invoiced: owed, not yet billed. */
  not_invoiced: z.number(),
});
export type Statement = z.infer<typeof Statement>;

export const AgedQuery = z.object({
  format: z.enum(["json", "csv"]).optional(),
  on: IsoDate.optional(),
  /** At HQ in HQ mode: one site's restored copy only (else HQ's own database and every site's copy). */
  site: SiteName.optional(),
});
export const AgedRow = z.object({
  account_id: z.number(),
  agent_id: z.number(),
  /** The billing shop's name, as that database names it. */
  agent_name: z.string(),
  /** At HQ: the site whose copy holds the account (null: HQ's own database); ids are per database. */
  site: z.string().nullable(),
  name: z.string(),
  not_invoiced: z.number(),
  d0_30: z.number(),
  d31_60: z.number(),
  d61_90: z.number(),
  d90_plus: z.number(),
  /** The account's balance: the sum of the buckets and what is not invoiced yet. */
  balance: z.number(),
});
export const Aged = z.object({
  on: z.string(),
  accounts: z.array(AgedRow),
  totals: AgedRow.omit({ account_id: true, agent_id: true, agent_name: true, site: true, name: true }),
});
export type Aged = z.infer<typeof Aged>;

export const SendQuery = z.object({ again: z.enum(["true", "false"]).optional() });

export const PrefixInput = z.object({
  prefix: z
    .string()
    .trim()
    .regex(/^[A-Z0-9]{2,8}$/, "2 to 8 capital letters or digits"),
});
export const Prefix = z.object({ agent_id: z.number(), prefix: z.string() });
export const PrefixParams = z.object({ agent: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

/** An account charge over the limit carries a manager's approval on the pay routes. */
export const PayApproval = z.object({ approval: Approval.optional() });
