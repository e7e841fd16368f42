/**
 * The accounts' part of the daily money check (issue 34, the invariants of issue 27): every
 * payment row of tender `account` has its account charge to the cent; every invoice's lines
 * add up to the charges it bills and each line's net + VAT is its gross; credit notes never take
 * off more than their invoice's total, and with the allocations never more than it asked; no
 * payment on account is allocated beyond its amount; each account's balance read from the rows
 * that name it (charges − payments − credit notes) equals the same balance read through its
 * documents (what is not invoiced + what its invoices still ask − what its payments left
 * unallocated), which only a row naming one account and pointing at another's document breaks;
 * each shop's series of a year has no gap. The deposits' part (no customer below zero at a
 * shop, each spend its payment's) is in money/check.ts. Plain SQL, so the
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
SELECT 'invoice line', id, gross, net + vat FROM invoice_lines WHERE net + vat <> gross
UNION ALL
SELECT 'credit notes', i.id, coalesce(l.s, 0), cn.s FROM invoices i
  JOIN (SELECT invoice_id, sum(amount) AS s FROM credit_notes GROUP BY invoice_id) cn ON cn.invoice_id = i.id
  LEFT JOIN (SELECT invoice_id, sum(gross) AS s FROM invoice_lines GROUP BY invoice_id) l ON l.invoice_id = i.id
  WHERE cn.s > coalesce(l.s, 0)
UNION ALL
SELECT 'invoice settled', i.id, coalesce(l.s, 0), coalesce(cn.s, 0) + al.s FROM invoices i
  JOIN (SELECT invoice_id, sum(amount) AS s FROM payment_allocations GROUP BY invoice_id) al ON al.invoice_id = i.id
  LEFT JOIN (SELECT invoice_id, sum(amount) AS s FROM credit_notes GROUP BY invoice_id) cn ON cn.invoice_id = i.id
  LEFT JOIN (SELECT invoice_id, sum(gross) AS s FROM invoice_lines GROUP BY invoice_id) l ON l.invoice_id = i.id
  WHERE coalesce(cn.s, 0) + al.s > coalesce(l.s, 0)
UNION ALL
SELECT 'payment allocations', p.id, p.amount, al.s FROM account_payments p
  JOIN (SELECT account_payment_id, sum(amount) AS s FROM payment_allocations GROUP BY account_payment_id) al ON al.account_payment_id = p.id
  WHERE al.s > p.amount
UNION ALL
SELECT 'account', id, own, docs FROM (SELECT a.id,
    (SELECT coalesce(sum(amount), 0) FROM account_charges WHERE account_id = a.id)
    - (SELECT coalesce(sum(amount), 0) FROM account_payments WHERE account_id = a.id)
    - (SELECT coalesce(sum(amount), 0) FROM credit_notes WHERE account_id = a.id) AS own,
    (SELECT coalesce(sum(amount), 0) FROM account_charges WHERE account_id = a.id)
    - (SELECT coalesce(sum(c.amount), 0) FROM credit_notes c JOIN invoices i ON i.id = c.invoice_id WHERE i.account_id = a.id)
    - (SELECT coalesce(sum(x.amount), 0) FROM payment_allocations x JOIN invoices i ON i.id = x.invoice_id WHERE i.account_id = a.id)
    - (SELECT coalesce(sum(amount), 0) FROM account_payments WHERE account_id = a.id)
    + (SELECT coalesce(sum(x.amount), 0) FROM payment_allocations x JOIN account_payments p ON p.id = x.account_payment_id WHERE p.account_id = a.id) AS docs
  FROM accounts a) WHERE own <> docs
UNION ALL
SELECT 'invoice series', min(id), max(seq), count(*) FROM invoices GROUP BY agent_id, year HAVING max(seq) <> count(*)
UNION ALL
SELECT 'credit note series', min(id), max(seq), count(*) FROM credit_notes GROUP BY agent_id, year HAVING max(seq) <> count(*)`;
