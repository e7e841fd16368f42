// Issue 31: the database holds the ledger's invariant itself (migration 0014). One probe for
// every data set that must hold it (the demo, the reference generator's output): each direct
// write of a total_paid that differs from its payment rows is refused, a write that keeps it
// equal is not, and payment and refund rows still move it. Run inside a transaction the probe
// rolls back, so the data set is left as it was for the tests after it.
import { expect } from "bun:test";
import type { InStatement, ResultSet } from "@libsql/client";
import { checkTotals } from "../modules/money/check";

/** A libSQL connection that can open a write transaction (a Client). */
interface Conn {
  transaction(mode: "write"): Promise<{ execute(s: InStatement): Promise<ResultSet>; rollback(): Promise<void> }>;
}

export const REFUSED = /total_paid must equal the sum of its payment rows/;

export async function expectTotalsGuarded(conn: Conn): Promise<void> {
  const tx = await conn.transaction("write");
  try {
    const one = async (sql: string, args: (string | number | null)[] = []) => (await tx.execute({ sql, args })).rows[0] as unknown as Record<string, number>;
    const refused = async (sql: string, args: (string | number | null)[]) => {
      await expect(tx.execute({ sql, args })).rejects.toThrow(REFUSED);
    };
    // A ticket and an item with money, and a ticket with none: the data set must have them.
    const item = await one("SELECT i.id, i.ticket_id, i.total_paid FROM ticket_sub_categories i WHERE i.total_paid > 0 ORDER BY i.id LIMIT 1");
    const unpaid = await one("SELECT id FROM tickets WHERE total_paid = 0 ORDER BY id LIMIT 1");
    expect(item).toBeDefined();
    expect(unpaid).toBeDefined();
    const paidOf = async (table: string, id: number) => Number((await one(`SELECT total_paid FROM ${table} WHERE id = ?`, [id])).total_paid);
    const ticketPaid = await paidOf("tickets", item.ticket_id!);

    await refused("UPDATE tickets SET total_paid = total_paid + 1 WHERE id = ?", [item.ticket_id!]);
    await refused("UPDATE tickets SET total_paid = 0 WHERE id = ?", [item.ticket_id!]);
    await refused("UPDATE tickets SET total_paid = 500 WHERE id = ?", [unpaid.id!]);
    await refused("UPDATE ticket_sub_categories SET total_paid = total_paid + 1 WHERE id = ?", [item.id!]);
    await refused("UPDATE ticket_sub_categories SET total_paid = 0 WHERE id = ?", [item.id!]);
    // A whole-table write (the old money caps repair's shape) is refused as a whole.
    await refused("UPDATE tickets SET total_paid = total_paid + 1 WHERE total_paid > 0", []);
    // A new ticket or item that claims money with no rows.
    await refused(
      "INSERT INTO tickets (agent_id, employee_id, customer_id, total, total_paid) SELECT agent_id, employee_id, customer_id, 1000, 1000 FROM tickets WHERE id = ?",
      [item.ticket_id!],
    );
    await refused(
      "INSERT INTO ticket_sub_categories (ticket_id, garment_sub_category_id, total, total_paid) SELECT ticket_id, garment_sub_category_id, 1000, 1000 FROM ticket_sub_categories WHERE id = ?",
      [item.id!],
    );
    expect(await paidOf("tickets", item.ticket_id!)).toBe(ticketPaid);
    expect(await paidOf("ticket_sub_categories", item.id!)).toBe(item.total_paid!);

    // Writing the value it already has (an upsert of other columns) is no change of money.
    await tx.execute({ sql: "UPDATE tickets SET total_paid = total_paid, total = total WHERE id = ?", args: [item.ticket_id!] });
    await tx.execute({ sql: "UPDATE ticket_sub_categories SET total_paid = total_paid WHERE id = ?", args: [item.id!] });

    // Rows still move it: a payment on the item, then its refund.
    const t = await one("SELECT agent_id, employee_id FROM tickets WHERE id = ?", [item.ticket_id!]);
    const paid = await one(
      `INSERT INTO payments (ticket_id, ticket_sub_category_id, agent_id, employee_id, amount, tender, taken_at, till_day)
       VALUES (?, ?, ?, ?, 250, 'cash', '2026-11-20T10:00:00.000Z', '2026-11-20') RETURNING id`,
      [item.ticket_id!, item.id!, t.agent_id!, t.employee_id ?? null],
    );
    expect(await paidOf("ticket_sub_categories", item.id!)).toBe(item.total_paid! + 250);
    expect(await paidOf("tickets", item.ticket_id!)).toBe(ticketPaid + 250);
    await tx.execute({
      sql: `INSERT INTO payments (ticket_id, ticket_sub_category_id, agent_id, employee_id, amount, tender, refund_of, reason, taken_at, till_day)
            VALUES (?, ?, ?, ?, -100, 'cash', ?, 'probe', '2026-11-20T11:00:00.000Z', '2026-11-20')`,
      args: [item.ticket_id!, item.id!, t.agent_id!, t.employee_id ?? null, paid.id!],
    });
    expect(await paidOf("ticket_sub_categories", item.id!)).toBe(item.total_paid! + 150);
    expect(await paidOf("tickets", item.ticket_id!)).toBe(ticketPaid + 150);
    // A ticket's own row (its charges) moves the ticket's total only.
    await tx.execute({
      sql: `INSERT INTO payments (ticket_id, agent_id, employee_id, amount, tender, taken_at, till_day) VALUES (?, ?, ?, 50, 'card', '2026-11-20T12:00:00.000Z', '2026-11-20')`,
      args: [item.ticket_id!, t.agent_id!, t.employee_id ?? null],
    });
    expect(await paidOf("tickets", item.ticket_id!)).toBe(ticketPaid + 200);
    expect(await paidOf("ticket_sub_categories", item.id!)).toBe(item.total_paid! + 150);

    expect(await checkTotals(async (sql) => (await tx.execute(sql)).rows.map((r) => Object.values(r)))).toEqual({ ok: true, count: 0, first: [] });
  } finally {
    await tx.rollback();
  }
}
