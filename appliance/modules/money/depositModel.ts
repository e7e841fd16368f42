// Deposits (issue 34): money a customer leaves ahead, owed to them until spent or given back. Euros on the wire, cents inside.
import { z } from "zod";
import { euros } from "../../domain/schemas";

export const DEPOSIT_KINDS = ["deposit", "refund", "spend", "transfer_out", "transfer_in"] as const;

export const DepositBody = z.object({
  amount: euros.refine((n) => n > 0, "must be more than 0"),
  /**
   * How the money came in: a tender of the drawer (a balance cannot pay a balance, nor a
   * business account a deposit). Listed here, not taken from model.ts, which re-exports this file.
   */
  method: z.enum(["cash", "card", "other"]),
});

export const Deposit = z.object({
  id: z.number(),
  customer_id: z.number(),
  /** The shop holding the money: the balance is spendable there. */
  agent_id: z.number(),
  employee_id: z.number().nullable(),
  kind: z.enum(DEPOSIT_KINDS),
  /** Euros: positive into the balance, negative out of it. */
  amount: z.number(),
  tender: z.string(),
  payment_id: z.number().nullable(),
  refund_of: z.number().nullable(),
  reason: z.string().nullable(),
  taken_at: z.string(),
  till_day: z.string(),
});
export type Deposit = z.infer<typeof Deposit>;

/** A deposit row with the customer's balance at its shop once it is in. */
export const DepositResult = Deposit.extend({ balance: z.number() });

export const DepositBalance = z.object({
  customer_id: z.number(),
  /** Everything the chain owes the customer on this box, every shop together (euros). */
  balance: z.number(),
  /** What the caller's shop can spend now (its own deposits: a shop never spends another's without HQ's transfer). */
  spendable: z.number(),
  by_shop: z.array(z.object({ agent_id: z.number(), balance: z.number() })),
  /** The ledger's rows, newest first (at most 100). */
  rows: z.array(Deposit),
});
export type DepositBalance = z.infer<typeof DepositBalance>;

/** POST /customers/{id}/deposits/transfer (HQ staff): a balance moved from one shop to another. */
export const TransferBody = z.object({
  from_agent: z.number().int().positive(),
  to_agent: z.number().int().positive(),
  amount: euros.refine((n) => n > 0, "must be more than 0"),
});
export type TransferBody = z.infer<typeof TransferBody>;

export const TransferResult = z.object({
  transfer_id: z.string(),
  customer_id: z.number(),
  from_agent: z.number(),
  to_agent: z.number(),
  amount: z.number(),
  /** applied: both rows written on this box; requested: HQ signs it down to the shops' boxes (phase out, then in). */
  status: z.enum(["applied", "requested"]),
  /** The customer's balance at each shop afterwards (on this box). */
  from_balance: z.number(),
  to_balance: z.number(),
});
export type TransferResult = z.infer<typeof TransferResult>;
