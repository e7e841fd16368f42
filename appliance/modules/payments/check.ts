/**
 * The ledger's invariant (issue 24): every item's and every ticket's `total_paid` equals the
 * sum of its payment rows. The triggers of migration 0010 keep it on every write; this check
 * proves it over a whole database (tests over the demo and reference data, the fault script).
 * Plain SQL, so it runs on any connection (libSQL, bun:sqlite).
 */

/** Tickets and items whose total differs from their rows: [kind, id, total_paid, rows]. */
export const PAYMENT_SUMS_SQL = `
SELECT 'ticket', t.id, t.total_paid, coalesce(p.s, 0) FROM tickets t
  LEFT JOIN (SELECT ticket_id, sum(amount) AS s FROM payments GROUP BY ticket_id) p ON p.ticket_id = t.id
  WHERE t.total_paid <> coalesce(p.s, 0)
UNION ALL
SELECT 'item', i.id, i.total_paid, coalesce(p.s, 0) FROM ticket_sub_categories i
  LEFT JOIN (SELECT ticket_sub_category_id AS item, sum(amount) AS s FROM payments WHERE ticket_sub_category_id IS NOT NULL GROUP BY 1) p ON p.item = i.id
  WHERE i.total_paid <> coalesce(p.s, 0)
LIMIT 100`;

export interface SumMismatch {
  kind: "ticket" | "item";
  id: number;
  total_paid: number;
  rows: number;
}

export async function checkPaymentSums(values: (sql: string) => Promise<unknown[][]> | unknown[][]): Promise<SumMismatch[]> {
  return (await values(PAYMENT_SUMS_SQL)).map((r) => ({ kind: r[0] as "ticket" | "item", id: Number(r[1]), total_paid: Number(r[2]), rows: Number(r[3]) }));
}

/**
 * Paid amounts written without rows (a bulk load, as migration 0010 found them) become rows
 * of tender `other` (tickets with no rows yet): one per paid item, one per ticket for the rest. The same statements as
 * the migration's; run with the payments triggers dropped, so the totals stay as they are.
 */
export const CARRY_PAID_SQL = `
CREATE TEMP TABLE carried AS
SELECT i.ticket_id AS ticket_id, i.id AS item_id, t.agent_id AS agent_id, i.total_paid AS amount, coalesce(t.confirmed_at, t.created_at) AS taken_at, t.employee_id AS employee_id
FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id WHERE i.total_paid <> 0 AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.ticket_id = t.id)
UNION ALL
SELECT t.id, NULL, t.agent_id, t.total_paid - coalesce((SELECT sum(i.total_paid) FROM ticket_sub_categories i WHERE i.ticket_id = t.id), 0), coalesce(t.confirmed_at, t.created_at), t.employee_id
FROM tickets t WHERE t.total_paid <> coalesce((SELECT sum(i.total_paid) FROM ticket_sub_categories i WHERE i.ticket_id = t.id), 0)
  AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.ticket_id = t.id);
INSERT INTO payments (ticket_id, ticket_sub_category_id, agent_id, employee_id, amount, tender, reason, taken_at, till_day)
SELECT ticket_id, item_id, agent_id, employee_id, amount, 'other', 'carried over (migration 0010)', taken_at,
  date(taken_at, CASE WHEN taken_at >= date(substr(taken_at, 1, 4) || '-03-25', 'weekday 0') || 'T01:00:00'
                       AND taken_at < date(substr(taken_at, 1, 4) || '-10-25', 'weekday 0') || 'T01:00:00' THEN '+2 hours' ELSE '+1 hour' END)
FROM carried ORDER BY taken_at, ticket_id, item_id;
DROP TABLE carried;`;
