/**
 * The journal's sources (issue 34): one function per kind of line, each answering per day and
 * shop the debit and credit lines of its money, in cents, on account keys (accounts.ts). The
 * journal is every source's lines added up per day, shop and account; every day of every shop
 * must then balance (formats.ts refuses a file that does not).
 *
 * How the lines balance, per day and shop: the payments of the day are sales (credit sales
 * net and VAT) paid by tenders (debit each tender's account; a payment by the customer's
 * balance debits the deposits owed, since the money came in before); a refund reverses both;
 * a deposit taken debits its tender and credits the deposits owed (and a deposit given back
 * the reverse); a drawer's variance moves its tender against the variance account.
 *
 * To add a kind of line (the accounts module's charges, payments on account, invoices, credit
 * notes): write a JournalSource that reads its module through that module's reads.ts, give its
 * accounts keys in accounts.ts, and add it to JOURNAL_SOURCES below. Nothing else changes.
 */
import { vatIn } from "../../domain/vat";
import { depositDays, type JournalQuery, paymentDays, type Values, varianceDays } from "../money/reads";
import { accountPaymentDays, creditNoteDays } from "../accounts/reads";
import { type AccountKey, tenderAccount } from "./accounts";

export interface JournalLine {
  day: string;
  agent: number;
  account: AccountKey;
  /** Cents, one of them 0. */
  debit: number;
  credit: number;
  description: string;
}

export interface JournalSource {
  name: string;
  lines(values: Values, q: JournalQuery): Promise<JournalLine[]>;
}

const line = (day: string, agent: number, account: AccountKey, cents: number, description: string): JournalLine =>
  cents >= 0 ? { day, agent, account, debit: cents, credit: 0, description } : { day, agent, account, debit: 0, credit: -cents, description };

/** Sales by VAT rate: each day's payments (every tender) as net sales and VAT, credited. One rate: the catalogue's 18 %. */
export const salesByVat: JournalSource = {
  name: "sales by VAT rate",
  async lines(values, q) {
    const gross = new Map<string, number>();
    for (const r of await paymentDays(values, q)) gross.set(`${r.day}|${r.agent}`, (gross.get(`${r.day}|${r.agent}`) ?? 0) + r.in);
    return [...gross].flatMap(([k, cents]) => {
      const [day, agent] = [k.split("|")[0]!, Number(k.split("|")[1])];
      const { net, vat } = vatIn(cents);
      return cents ? [line(day, agent, "sales_vat_18", -net, "Sales at 18 % VAT, net"), line(day, agent, "vat_output", -vat, "VAT on sales at 18 %")] : [];
    });
  },
};

/** Takings by tender: what each tender took for those sales, debited (by balance: the deposits owed, now spent). */
export const takingsByTender: JournalSource = {
  name: "takings by tender",
  async lines(values, q) {
    return (await paymentDays(values, q))
      .filter((r) => r.in)
      .map((r) => line(r.day, r.agent, tenderAccount(r.tender), r.in, r.tender === "balance" ? "Deposits spent on tickets" : `Takings by ${r.tender}`));
  },
};

/** Refunds: sales and VAT given back, debited; the tender that paid them credited (by balance: back onto the deposits owed). */
export const refunds: JournalSource = {
  name: "refunds",
  async lines(values, q) {
    const out: JournalLine[] = [];
    for (const r of await paymentDays(values, q)) {
      if (!r.out) continue;
      const { net, vat } = vatIn(r.out);
      out.push(
        line(r.day, r.agent, "refunds_vat_18", net, `Refunds by ${r.tender}, net`),
        line(r.day, r.agent, "vat_output", vat, `VAT on refunds by ${r.tender}`),
        line(r.day, r.agent, tenderAccount(r.tender), -r.out, r.tender === "balance" ? "Refunds onto customers' deposits" : `Refunds by ${r.tender}`),
      );
    }
    return out;
  },
};

/** Deposits taken (tender debited, deposits owed credited) and given back (the reverse). */
export const depositsTaken: JournalSource = {
  name: "deposits taken and given back",
  async lines(values, q) {
    const out: JournalLine[] = [];
    for (const r of await depositDays(values, q)) {
      if (r.in)
        out.push(
          line(r.day, r.agent, tenderAccount(r.tender), r.in, `Deposits taken by ${r.tender}`),
          line(r.day, r.agent, "deposits", -r.in, "Deposits taken"),
        );
      if (r.out)
        out.push(
          line(r.day, r.agent, "deposits", r.out, "Deposits given back"),
          line(r.day, r.agent, tenderAccount(r.tender), -r.out, `Deposits given back by ${r.tender}`),
        );
    }
    return out;
  },
};

/** Till variances of closed drawers: over debits the tender and credits the variance account, short the reverse. */
export const tillVariances: JournalSource = {
  name: "till variances",
  async lines(values, q) {
    const out: JournalLine[] = [];
    for (const v of await varianceDays(values, q))
      for (const tender of ["cash", "card", "other"] as const) {
        const cents = v[tender];
        if (cents)
          out.push(
            line(v.day, v.agent, tenderAccount(tender), cents, `Till ${cents > 0 ? "over" : "short"}, ${tender}`),
            line(v.day, v.agent, "till_variance", -cents, `Till ${cents > 0 ? "over" : "short"}, ${tender}`),
          );
      }
    return out;
  },
};

/**
 * Business accounts (issue 34). A charge on account is a payment row of tender `account`: its
 * sale is in "sales by VAT rate" and its debit goes to accounts receivable through
 * tenderAccount. Here: payments received on account (the tender debited, receivable credited)
 * and credit notes (sales and VAT given back debited, receivable credited), each on its day.
 * Invoices move no money between accounts (they bill charges already booked): no lines.
 */
export const accountMoney: JournalSource = {
  name: "payments on account and credit notes",
  async lines(values, q) {
    const out: JournalLine[] = [];
    for (const r of await accountPaymentDays(values, q)) {
      const cents = r.in - r.out;
      if (!cents) continue;
      const tender = r.tender === "cash" || r.tender === "card" ? r.tender : "other";
      out.push(
        line(r.day, r.agent, tenderAccount(tender), cents, `Payments on account by ${r.tender.replace("_", " ")}`),
        line(r.day, r.agent, "accounts_receivable", -cents, `Payments on account by ${r.tender.replace("_", " ")}`),
      );
    }
    for (const c of await creditNoteDays(values, q)) {
      if (!c.cents) continue;
      const { net, vat } = vatIn(c.cents);
      out.push(
        line(c.day, c.agent, "refunds_vat_18", net, "Credit notes, net"),
        line(c.day, c.agent, "vat_output", vat, "VAT on credit notes"),
        line(c.day, c.agent, "accounts_receivable", -c.cents, "Credit notes"),
      );
    }
    return out;
  },
};

/** Every kind of line of the journal, in the order a day's lines are listed. */
export const JOURNAL_SOURCES: readonly JournalSource[] = [salesByVat, takingsByTender, refunds, depositsTaken, tillVariances, accountMoney];
