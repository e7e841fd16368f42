DROP INDEX `tsc_express_idx`;--> statement-breakpoint
DROP INDEX `tsc_process_idx`;--> statement-breakpoint
CREATE INDEX `tsc_express_idx` ON `ticket_sub_categories` (`state`) WHERE has_express = 1;--> statement-breakpoint
CREATE INDEX `tsc_process_idx` ON `ticket_sub_categories` (`process_date`,`quantity`) WHERE process_date IS NOT NULL;--> statement-breakpoint
DROP INDEX `tickets_confirmed_idx`;--> statement-breakpoint
CREATE INDEX `tickets_confirmed_idx` ON `tickets` (`confirmed_at`) WHERE confirmed_at IS NOT NULL;
--> statement-breakpoint
-- Issue 33, less written per sale (docs/decisions/wal-per-sale.md). The statistics triggers
-- rewrote the customer's customer_stats row and both of its indexes on every change to a
-- ticket's total, i.e. on every item added at the counter: three WAL pages a commit. Only
-- the two ranked figures (visits, spent) stay here, written only when they change; the
-- customer's own figures (ticket total, outstanding, last visit) are read from the tickets.
DROP TRIGGER `customer_stats_ticket_ai`;
--> statement-breakpoint
DROP TRIGGER `customer_stats_ticket_au`;
--> statement-breakpoint
DROP TRIGGER `customer_stats_ticket_ad`;
--> statement-breakpoint
-- A new ticket is unconfirmed and unpaid (0014 refuses a paid one): nothing ranked changes,
-- unless a bulk load inserts a confirmed one.
CREATE TRIGGER `customer_stats_ticket_ai` AFTER INSERT ON `tickets`
WHEN new.confirmed_at IS NOT NULL OR new.total_paid <> 0 BEGIN
  INSERT OR IGNORE INTO customer_stats (customer_id) VALUES (new.customer_id);
  UPDATE customer_stats SET number_of_visits = (SELECT count(confirmed_at) FROM tickets WHERE customer_id = new.customer_id)
  WHERE customer_id = new.customer_id AND number_of_visits IS NOT (SELECT count(confirmed_at) FROM tickets WHERE customer_id = new.customer_id);
  UPDATE customer_stats SET total_spent = (SELECT coalesce(sum(total_paid), 0) FROM tickets WHERE customer_id = new.customer_id)
  WHERE customer_id = new.customer_id AND total_spent IS NOT (SELECT coalesce(sum(total_paid), 0) FROM tickets WHERE customer_id = new.customer_id);
END;
--> statement-breakpoint
-- One UPDATE per ranked column, each only when its value differs: SQLite rewrites an index
-- entry whenever its column is assigned, even to the same value.
CREATE TRIGGER `customer_stats_ticket_au` AFTER UPDATE OF customer_id, total_paid, confirmed_at ON `tickets`
WHEN old.customer_id IS NOT new.customer_id OR old.total_paid IS NOT new.total_paid OR old.confirmed_at IS NOT new.confirmed_at BEGIN
  INSERT OR IGNORE INTO customer_stats (customer_id) SELECT id FROM customers WHERE id IN (old.customer_id, new.customer_id);
  UPDATE customer_stats SET number_of_visits = (SELECT count(confirmed_at) FROM tickets t WHERE t.customer_id = customer_stats.customer_id)
  WHERE customer_id IN (old.customer_id, new.customer_id)
    AND number_of_visits IS NOT (SELECT count(confirmed_at) FROM tickets t WHERE t.customer_id = customer_stats.customer_id);
  UPDATE customer_stats SET total_spent = (SELECT coalesce(sum(total_paid), 0) FROM tickets t WHERE t.customer_id = customer_stats.customer_id)
  WHERE customer_id IN (old.customer_id, new.customer_id)
    AND total_spent IS NOT (SELECT coalesce(sum(total_paid), 0) FROM tickets t WHERE t.customer_id = customer_stats.customer_id);
END;
--> statement-breakpoint
CREATE TRIGGER `customer_stats_ticket_ad` AFTER DELETE ON `tickets`
WHEN old.confirmed_at IS NOT NULL OR old.total_paid <> 0 BEGIN
  UPDATE customer_stats SET number_of_visits = (SELECT count(confirmed_at) FROM tickets WHERE customer_id = old.customer_id)
  WHERE customer_id = old.customer_id AND number_of_visits IS NOT (SELECT count(confirmed_at) FROM tickets WHERE customer_id = old.customer_id);
  UPDATE customer_stats SET total_spent = (SELECT coalesce(sum(total_paid), 0) FROM tickets WHERE customer_id = old.customer_id)
  WHERE customer_id = old.customer_id AND total_spent IS NOT (SELECT coalesce(sum(total_paid), 0) FROM tickets WHERE customer_id = old.customer_id);
END;
