-- Customer search: an FTS5 trigram index over the searchable fields, kept in step with every
-- write by triggers, so fuzzy search stays in milliseconds at a million customers.
CREATE VIRTUAL TABLE `customers_fts` USING fts5(full_name, mobile, landline, id_card, email_address, content='customers', content_rowid='id', tokenize='trigram');
--> statement-breakpoint
CREATE TRIGGER `customers_fts_ai` AFTER INSERT ON `customers` BEGIN
  INSERT INTO customers_fts(rowid, full_name, mobile, landline, id_card, email_address) VALUES (new.id, new.full_name, new.mobile, new.landline, new.id_card, new.email_address);
END;
--> statement-breakpoint
CREATE TRIGGER `customers_fts_ad` AFTER DELETE ON `customers` BEGIN
  INSERT INTO customers_fts(customers_fts, rowid, full_name, mobile, landline, id_card, email_address) VALUES ('delete', old.id, old.full_name, old.mobile, old.landline, old.id_card, old.email_address);
END;
--> statement-breakpoint
CREATE TRIGGER `customers_fts_au` AFTER UPDATE OF full_name, mobile, landline, id_card, email_address ON `customers` BEGIN
  INSERT INTO customers_fts(customers_fts, rowid, full_name, mobile, landline, id_card, email_address) VALUES ('delete', old.id, old.full_name, old.mobile, old.landline, old.id_card, old.email_address);
  INSERT INTO customers_fts(rowid, full_name, mobile, landline, id_card, email_address) VALUES (new.id, new.full_name, new.mobile, new.landline, new.id_card, new.email_address);
END;
--> statement-breakpoint
INSERT INTO customers_fts(customers_fts) VALUES ('rebuild');
--> statement-breakpoint
-- How many customers hold each trigram: search ORs only the rarest ones of a misspelt term.
CREATE VIRTUAL TABLE `customers_fts_vocab` USING fts5vocab(customers_fts, 'row');
--> statement-breakpoint
-- Customer statistics follow their tickets: each change recomputes that customer's row
-- from its own tickets (a handful of rows through tickets_customer_idx), so it never drifts.
CREATE TRIGGER `customer_stats_ticket_ai` AFTER INSERT ON `tickets` BEGIN
  INSERT INTO customer_stats (customer_id, number_of_visits, total_spent, ticket_total, outstanding_balance, last_visit)
  SELECT new.customer_id, count(confirmed_at), coalesce(sum(total_paid), 0), coalesce(sum(total), 0),
         coalesce(sum(CASE WHEN confirmed_at IS NOT NULL THEN total - total_paid ELSE 0 END), 0), max(confirmed_at)
  FROM tickets WHERE customer_id = new.customer_id
  ON CONFLICT(customer_id) DO UPDATE SET number_of_visits = excluded.number_of_visits, total_spent = excluded.total_spent,
    ticket_total = excluded.ticket_total, outstanding_balance = excluded.outstanding_balance, last_visit = excluded.last_visit;
END;
--> statement-breakpoint
CREATE TRIGGER `customer_stats_ticket_au` AFTER UPDATE OF customer_id, total, total_paid, confirmed_at ON `tickets` BEGIN
  INSERT INTO customer_stats (customer_id, number_of_visits, total_spent, ticket_total, outstanding_balance, last_visit)
  SELECT c.id, count(t.confirmed_at), coalesce(sum(t.total_paid), 0), coalesce(sum(t.total), 0),
         coalesce(sum(CASE WHEN t.confirmed_at IS NOT NULL THEN t.total - t.total_paid ELSE 0 END), 0), max(t.confirmed_at)
  FROM customers c LEFT JOIN tickets t ON t.customer_id = c.id
  WHERE c.id IN (old.customer_id, new.customer_id) GROUP BY c.id
  ON CONFLICT(customer_id) DO UPDATE SET number_of_visits = excluded.number_of_visits, total_spent = excluded.total_spent,
    ticket_total = excluded.ticket_total, outstanding_balance = excluded.outstanding_balance, last_visit = excluded.last_visit;
END;
--> statement-breakpoint
CREATE TRIGGER `customer_stats_ticket_ad` AFTER DELETE ON `tickets` BEGIN
  INSERT INTO customer_stats (customer_id, number_of_visits, total_spent, ticket_total, outstanding_balance, last_visit)
  SELECT c.id, count(t.confirmed_at), coalesce(sum(t.total_paid), 0), coalesce(sum(t.total), 0),
         coalesce(sum(CASE WHEN t.confirmed_at IS NOT NULL THEN t.total - t.total_paid ELSE 0 END), 0), max(t.confirmed_at)
  FROM customers c LEFT JOIN tickets t ON t.customer_id = c.id
  WHERE c.id = old.customer_id GROUP BY c.id
  ON CONFLICT(customer_id) DO UPDATE SET number_of_visits = excluded.number_of_visits, total_spent = excluded.total_spent,
    ticket_total = excluded.ticket_total, outstanding_balance = excluded.outstanding_balance, last_visit = excluded.last_visit;
END;
--> statement-breakpoint
INSERT INTO customer_stats (customer_id, number_of_visits, total_spent, ticket_total, outstanding_balance, last_visit)
SELECT customer_id, count(confirmed_at), sum(total_paid), sum(total), sum(CASE WHEN confirmed_at IS NOT NULL THEN total - total_paid ELSE 0 END), max(confirmed_at)
FROM tickets GROUP BY customer_id;
