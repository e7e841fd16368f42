-- ==== Hand-written (issue 31): keep below any generated statements when renumbering. ====
-- The database holds the ledger's invariant itself: an item's total_paid is the sum of the
-- payment rows that name it, a ticket's the sum of all its rows (its items' and its own, e.g.
-- charges). Only payments_keep_totals (0010) moves them, AFTER the row is in, so the sum below
-- already counts that row. Any other write of total_paid (an importer's upsert, a repair, a
-- test's UPDATE) that differs from the rows is refused, and so is a new ticket or item that
-- claims money: it has no rows yet. (A BEFORE INSERT trigger fires for an upsert that ends in
-- its DO UPDATE too, so the insert guard asks for 0, not for the rows of NEW.id: an importer's
-- upsert of a paid ticket inserts 0 and leaves total_paid out of its update.) Totals already
-- off on an old file are not touched here: the daily database check reports them
-- (payments/check.ts), and a payment on such a ticket is refused until a person settles it.
CREATE TRIGGER `tickets_total_paid_insert` BEFORE INSERT ON `tickets` WHEN NEW.`total_paid` IS NOT 0
BEGIN SELECT RAISE(ABORT, 'total_paid must equal the sum of its payment rows'); END;
--> statement-breakpoint
CREATE TRIGGER `tickets_total_paid_update` BEFORE UPDATE OF `total_paid` ON `tickets`
WHEN NEW.`total_paid` IS NOT (SELECT coalesce(sum(`amount`), 0) FROM `payments` WHERE `ticket_id` = NEW.`id`)
BEGIN SELECT RAISE(ABORT, 'total_paid must equal the sum of its payment rows'); END;
--> statement-breakpoint
CREATE TRIGGER `ticket_sub_categories_total_paid_insert` BEFORE INSERT ON `ticket_sub_categories` WHEN NEW.`total_paid` IS NOT 0
BEGIN SELECT RAISE(ABORT, 'total_paid must equal the sum of its payment rows'); END;
--> statement-breakpoint
CREATE TRIGGER `ticket_sub_categories_total_paid_update` BEFORE UPDATE OF `total_paid` ON `ticket_sub_categories`
WHEN NEW.`total_paid` IS NOT (SELECT coalesce(sum(`amount`), 0) FROM `payments` WHERE `ticket_sub_category_id` = NEW.`id`)
BEGIN SELECT RAISE(ABORT, 'total_paid must equal the sum of its payment rows'); END;
