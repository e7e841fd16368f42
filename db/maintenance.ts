/**
 * Statements that rebuild derived tables from their sources, for bulk loads that drop the
 * triggers keeping them in step (scripts/gen-reference.ts) and for repairs.
 */
export const REBUILD_CUSTOMER_STATS = `
  DELETE FROM customer_stats;
  INSERT INTO customer_stats (customer_id, number_of_visits, total_spent, ticket_total, outstanding_balance, last_visit)
  SELECT customer_id, count(confirmed_at), sum(total_paid), sum(total),
         sum(CASE WHEN confirmed_at IS NOT NULL THEN total - total_paid ELSE 0 END), max(confirmed_at)
  FROM tickets GROUP BY customer_id;`;
