/**
 * The accounts a journal line goes to, by key: what HQ maps once on the configuration screen
 * (GET/PUT /accounting/accounts) to its own chart. The defaults are a plausible small chart so
 * that a file is never refused for a missing code; HQ replaces them with its accountant's.
 * A new kind of line (an account charge, an invoice) adds its keys here.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accountCodes } from "../../../db/schema";
import { unprocessable } from "../../platform/errors";
import type { AccountCode } from "./model";

export const ACCOUNTS = {
  sales_vat_18: { label: "Sales, VAT 18 % (net)", code: "200", name: "Sales" },
  refunds_vat_18: { label: "Refunds of sales, VAT 18 % (net)", code: "210", name: "Sales refunds" },
  vat_output: { label: "VAT on sales (output)", code: "820", name: "VAT" },
  tender_cash: { label: "Takings by cash", code: "090", name: "Cash in tills" },
  tender_card: { label: "Takings by card", code: "091", name: "Card receipts clearing" },
  tender_other: { label: "Takings by other tenders", code: "092", name: "Other receipts clearing" },
  deposits: { label: "Customer deposits (money owed to customers)", code: "835", name: "Customer deposits" },
  accounts_receivable: { label: "Business accounts (money they owe: charges less payments and credit notes)", code: "610", name: "Accounts receivable" },
  till_variance: { label: "Till variances (over and short)", code: "480", name: "Cash over and short" },
  /** Not an account: the tax rate name Xero's import asks on every line (VAT has its own lines here). */
  xero_tax_rate: { label: "Xero tax rate name for every line", code: "-", name: "No VAT" },
} as const;
export type AccountKey = keyof typeof ACCOUNTS;

/** The account of a drawer tender; a payment by balance is money the chain owed the customer. */
export const tenderAccount = (tender: string): AccountKey =>
  tender === "cash"
    ? "tender_cash"
    : tender === "card"
      ? "tender_card"
      : tender === "balance"
        ? "deposits"
        : tender === "account"
          ? "accounts_receivable"
          : "tender_other";

export type Chart = Record<AccountKey, { code: string; name: string }>;

export async function readChart(db: Pick<Db, "select">): Promise<AccountCode[]> {
  const set = new Map((await db.select().from(accountCodes)).map((r) => [r.key, r]));
  return (Object.keys(ACCOUNTS) as AccountKey[]).map((key) => {
    const r = set.get(key);
    return { key, label: ACCOUNTS[key].label, code: r?.code ?? ACCOUNTS[key].code, name: r?.name ?? ACCOUNTS[key].name, is_default: !r };
  });
}

export const chartOf = (codes: readonly AccountCode[]): Chart => Object.fromEntries(codes.map((c) => [c.key, { code: c.code, name: c.name }])) as Chart;

/** Saves the codes given (the others keep theirs), in one transaction. */
export async function writeChart(db: Db, rows: readonly { key: string; code: string; name: string }[], at: Date): Promise<void> {
  const unknown = rows.filter((r) => !(r.key in ACCOUNTS)).map((r) => r.key);
  if (unknown.length) throw unprocessable(`accounts: no such line ${unknown.slice(0, 3).join(", ")}`);
  await db.transaction(async (tx) => {
    for (const r of rows) {
      await tx.delete(accountCodes).where(eq(accountCodes.key, r.key));
      await tx.insert(accountCodes).values({ key: r.key, code: r.code, name: r.name, updated_at: at.toISOString() });
    }
  });
}
