/**
 * The ledger's invariant (issue 24): every item's and every ticket's `total_paid` equals the
 * sum of its payment rows. The triggers of migration 0010 keep it on every write; this check
 * proves it over a whole database (tests over the demo and reference data, the fault script).
 * Plain SQL, so it runs on any connection (libSQL, bun:sqlite).
 */
import { addDays, businessDay } from "../../domain/dates";
import { dayStartUtc } from "../../domain/schedule";

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

/** A synchronous SQL connection (bun:sqlite): one statement per call, positional arguments. */
export interface SyncSql {
  run(sql: string, args?: (string | number)[]): void;
  values(sql: string, args?: (string | number)[]): unknown[][];
}

/**
 * Paid amounts written without rows (a bulk load, as migration 0010 found them) become rows
 * of tender `other` (tickets with no rows yet): one per paid item, one per ticket for the rest.
 * Run with the payments triggers dropped, so the totals stay as they are. Each row's till day
 * is its day in the shop's zone, from a table of day starts that dayStartUtc computes (the zone
 * has one owner, domain/dates; issue 31 removed the summer-time rule written in SQL here).
 */
export function carryPaid(db: SyncSql): number {
  db.run(`CREATE TEMP TABLE carried AS
SELECT i.ticket_id AS ticket_id, i.id AS item_id, t.agent_id AS agent_id, i.total_paid AS amount, coalesce(t.confirmed_at, t.created_at) AS taken_at, t.employee_id AS employee_id
FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id WHERE i.total_paid <> 0 AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.ticket_id = t.id)
UNION ALL
SELECT t.id, NULL, t.agent_id, t.total_paid - coalesce((SELECT sum(i.total_paid) FROM ticket_sub_categories i WHERE i.ticket_id = t.id), 0), coalesce(t.confirmed_at, t.created_at), t.employee_id
FROM tickets t WHERE t.total_paid <> coalesce((SELECT sum(i.total_paid) FROM ticket_sub_categories i WHERE i.ticket_id = t.id), 0)
  AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.ticket_id = t.id)`);
  const [first, last] = (db.values("SELECT min(taken_at), max(taken_at) FROM carried")[0] ?? []) as [string | null, string | null];
  let carried = 0;
  if (first && last) {
    db.run("CREATE TEMP TABLE day_starts (start TEXT PRIMARY KEY, day TEXT NOT NULL) WITHOUT ROWID");
    const days: string[] = [];
    for (let d = addDays(businessDay(new Date(first)), -1); d <= addDays(businessDay(new Date(last)), 1); d = addDays(d, 1)) days.push(d);
    for (let i = 0; i < days.length; i += 400) {
      const part = days.slice(i, i + 400);
      db.run(
        `INSERT INTO day_starts VALUES ${part.map(() => "(?, ?)").join(", ")}`,
        part.flatMap((d) => [dayStartUtc(d), d]),
      );
    }
    db.run(`INSERT INTO payments (ticket_id, ticket_sub_category_id, agent_id, employee_id, amount, tender, reason, taken_at, till_day)
SELECT ticket_id, item_id, agent_id, employee_id, amount, 'other', 'carried over (migration 0010)', taken_at,
  (SELECT s.day FROM day_starts s WHERE s.start <= c.taken_at ORDER BY s.start DESC LIMIT 1)
FROM carried c ORDER BY taken_at, ticket_id, item_id`);
    carried = Number(db.values("SELECT changes()")[0]?.[0] ?? 0);
    db.run("DROP TABLE day_starts");
  }
  db.run("DROP TABLE carried");
  return carried;
}
