/**
 * The accounts' part of the daily money check (issue 34, the invariants of issue 27): every
 * payment row of tender `account` has its account charge to the cent; every invoice's lines
 * add up to the charges it bills; each shop's series of a year has no gap. Plain SQL, so the
 * same check runs on the box (libSQL), in the check's own process and at HQ on a site copy
 * (bun:sqlite); a file from before migration 0017 has no account tables and nothing to check.
 */
export const ACCOUNT_TABLES_SQL = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'account_charges'";

export const ACCOUNT_MISMATCHES = `
SELECT 'account charge', p.id, p.amount, coalesce(c.amount, 0) FROM payments p
  LEFT JOIN account_charges c ON c.payment_id = p.id
  WHERE p.tender = 'account' AND (c.id IS NULL OR c.amount <> p.amount)
UNION ALL
SELECT 'invoice', i.id, coalesce(l.s, 0), coalesce(ch.s, 0) FROM invoices i
  LEFT JOIN (SELECT invoice_id, sum(gross) AS s FROM invoice_lines GROUP BY invoice_id) l ON l.invoice_id = i.id
  LEFT JOIN (SELECT ic.invoice_id, sum(c.amount) AS s FROM invoice_charges ic JOIN account_charges c ON c.id = ic.charge_id GROUP BY ic.invoice_id) ch ON ch.invoice_id = i.id
  WHERE coalesce(l.s, 0) <> coalesce(ch.s, 0)
UNION ALL
SELECT 'invoice series', min(id), max(seq), count(*) FROM invoices GROUP BY agent_id, year HAVING max(seq) <> count(*)
UNION ALL
SELECT 'credit note series', min(id), max(seq), count(*) FROM credit_notes GROUP BY agent_id, year HAVING max(seq) <> count(*)`;
