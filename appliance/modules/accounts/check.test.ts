/**
 * The daily money check over the books' rows (issue 34, the invariants of issue 27), on the demo
 * (whose account, invoice, part payment and deposit are made through the services): clean, it
 * finds nothing; each row corrupted by raw SQL, with the database's guard dropped as an old or
 * damaged file would have it, is named by its kind, on the box and by HQ's check of a site copy.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { type TestBox, testBox } from "../../test/harness";
import { checkCopy } from "../chain/check";
import { checkTotals } from "../money/check";
import { ACCOUNT_MISMATCHES } from "./check";

const NOW = "2026-11-22T09:00:00Z";
let box: TestBox;
const sql = (q: string) => box.database.client.execute(q);
const values = async (q: string) => (await sql(q)).rows.map((r) => Object.values(r));
const one = async (q: string) => Number((await values(q))[0]![0]);
/** Every account finding's kind, with its id. */
const found = async () => (await values(ACCOUNT_MISMATCHES)).map((r) => `${r[0]} ${r[1]}`);
/** The kinds found (sorted, once each), whatever else. */
const kinds = async () => [...new Set((await values(ACCOUNT_MISMATCHES)).map((r) => String(r[0])))].sort();

beforeAll(async () => {
  box = await testBox({ demo: true, now: NOW });
}, 60_000);
afterAll(() => box?.close());

test("the demo's books are whole: an account with charges, an invoice part paid, a deposit, and the check finds nothing", async () => {
  expect(await one("SELECT count(*) FROM accounts")).toBe(1);
  expect(await one("SELECT count(*) FROM account_charges")).toBe(8); // a payment row per item, two items a ticket
  expect(await one("SELECT count(*) FROM invoices")).toBe(1);
  expect(await one("SELECT count(*) FROM payment_allocations")).toBe(1);
  expect(await one("SELECT count(*) FROM deposits WHERE kind = 'deposit'")).toBe(1);
  expect(await checkTotals(values)).toEqual({ ok: true, count: 0, first: [] });
});

test("each corrupted row is named by its kind, on the box and in HQ's check of the site copy", async () => {
  const invoice = await one("SELECT min(id) FROM invoices");
  const account = await one("SELECT min(id) FROM accounts");
  const payment = await one("SELECT min(id) FROM account_payments");
  const line = await one(`SELECT min(id) FROM invoice_lines WHERE invoice_id = ${invoice}`);

  // An invoice line whose net + VAT is not its gross.
  await sql("DROP TRIGGER invoice_lines_no_update");
  await sql(`UPDATE invoice_lines SET vat = vat + 1 WHERE id = ${line}`);
  expect(await found()).toEqual([`invoice line ${line}`]);

  // A credit note for more than its invoice (and so, with the part payment, more than it asked).
  await sql("DROP TRIGGER credit_notes_within");
  await sql("DROP TRIGGER credit_notes_numbered");
  const insertNote = (accountId: number, seq: number, amount: string) =>
    sql(`INSERT INTO credit_notes (agent_id, account_id, invoice_id, number, year, seq, amount, reason, issued_on, created_at)
      SELECT agent_id, ${accountId}, id, 'CN-X-${seq}', year, ${seq}, ${amount}, 'x', issued_on, created_at FROM invoices WHERE id = ${invoice}`);
  await insertNote(account, 1, `(SELECT sum(gross) + 100 FROM invoice_lines WHERE invoice_id = ${invoice})`);
  expect(await kinds()).toEqual(["credit notes", "invoice line", "invoice settled"]);
  expect(await found()).toContain(`credit notes ${invoice}`);

  // A payment allocated beyond its amount.
  await sql("DROP TRIGGER payment_allocations_within");
  await sql(
    `INSERT INTO payment_allocations (account_payment_id, invoice_id, amount) SELECT id, ${invoice}, amount FROM account_payments WHERE id = ${payment}`,
  );
  expect(await found()).toContain(`payment allocations ${payment}`);

  // A credit note naming another account than its invoice's: both accounts' balances, read two ways, differ.
  await sql(`INSERT INTO accounts (agent_id, name) SELECT agent_id, 'Other' FROM accounts WHERE id = ${account}`);
  const other = await one("SELECT max(id) FROM accounts");
  await insertNote(other, 2, "1");
  expect(await found()).toEqual(expect.arrayContaining([`account ${account}`, `account ${other}`]));

  // A gap in the invoice series: number 3 with no 2.
  await sql("DROP TRIGGER invoices_numbered");
  await sql(`INSERT INTO invoices (agent_id, account_id, number, year, seq, period_from, period_to, issued_on, due_on, account_name, vat_number, created_at)
    SELECT agent_id, account_id, number || '-gap', year, 3, period_from, period_to, issued_on, due_on, account_name, vat_number, created_at FROM invoices WHERE id = ${invoice}`);
  expect(await kinds()).toContain("invoice series");

  // A customer's balance at a shop below zero.
  await sql("DROP TRIGGER deposits_not_below_zero");
  await sql(`INSERT INTO deposits (customer_id, agent_id, kind, amount, tender, taken_at, till_day)
    SELECT customer_id, agent_id, 'refund', -(amount + 500), tender, taken_at, till_day FROM deposits WHERE kind = 'deposit' LIMIT 1`);
  const box_ = await checkTotals(values);
  expect(box_.ok).toBe(false);
  expect(box_.first.map((m) => m.kind)).toContain("deposit");
  const accountFindings = (await values(ACCOUNT_MISMATCHES)).length;
  expect(box_.count).toBe(accountFindings + 1);

  // HQ's check of a site copy (chain/check.ts, in its own process at HQ) runs the same check.
  const copy = join(box.dir, "copy.db");
  // Its own connection: the box's client wraps each statement in a transaction, where VACUUM cannot run.
  const own = createClient({ url: `file:${join(box.dir, "ironbox.db")}` });
  await own.execute(`VACUUM INTO '${copy}'`);
  own.close();
  const hq = checkCopy(copy, "2026-11-22");
  expect(hq.integrity).toBe("ok");
  expect(hq.totals).toMatchObject({ ok: false, count: box_.count });
  expect(hq.totals!.first).toEqual(box_.first);
});
