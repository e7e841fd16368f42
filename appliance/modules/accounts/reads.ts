/**
 * What the accountant's journal (books module, issue 34) reads of the accounts' own money: per
 * day and billing shop, payments received on account (by method) and credit notes issued.
 * Charges on account are payment rows of tender `account` (money owns them): the journal reads
 * those with the other tenders. Plain SQL on whatever connection the reader has (the journal
 * runs in a process of its own).
 */
import type { JournalQuery, MoneyDay } from "../money/journalReads";
import type { Values } from "../money/takings";

const shops = (q: JournalQuery) => (q.agents ? "AND agent_id IN (SELECT value FROM json_each(?))" : "");
const args = (q: JournalQuery) => [q.from, q.to, ...(q.agents ? [JSON.stringify(q.agents)] : [])];

/** Payments on account per day received, billing shop and method (`in`; none is negative). */
export async function accountPaymentDays(values: Values, q: JournalQuery): Promise<MoneyDay[]> {
  const rows = await values(
    `SELECT received_on, agent_id, method, sum(max(amount, 0)), sum(max(-amount, 0)) FROM account_payments
      WHERE received_on >= ? AND received_on <= ? ${shops(q)} GROUP BY received_on, agent_id, method ORDER BY received_on, agent_id, method`,
    args(q),
  );
  return rows.map((r) => ({ day: String(r[0]), agent: Number(r[1]), tender: String(r[2]), in: Number(r[3] ?? 0), out: Number(r[4] ?? 0) }));
}

/** Credit notes per day issued and billing shop (cents taken off what the accounts owe). */
export async function creditNoteDays(values: Values, q: JournalQuery): Promise<{ day: string; agent: number; cents: number }[]> {
  const rows = await values(
    `SELECT issued_on, agent_id, sum(amount) FROM credit_notes WHERE issued_on >= ? AND issued_on <= ? ${shops(q)} GROUP BY issued_on, agent_id ORDER BY issued_on, agent_id`,
    args(q),
  );
  return rows.map((r) => ({ day: String(r[0]), agent: Number(r[1]), cents: Number(r[2] ?? 0) }));
}
