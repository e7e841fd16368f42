CREATE TABLE `payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` integer NOT NULL,
	`ticket_sub_category_id` integer,
	`agent_id` integer NOT NULL,
	`employee_id` integer,
	`amount` integer NOT NULL,
	`tender` text NOT NULL,
	`tendered` integer,
	`change_given` integer,
	`stop` text,
	`refund_of` integer,
	`reason` text,
	`taken_at` text NOT NULL,
	`till_day` text NOT NULL,
	`approved_by` integer,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_sub_category_id`) REFERENCES `ticket_sub_categories`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`refund_of`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`approved_by`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payments_ticket_idx` ON `payments` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `payments_item_idx` ON `payments` (`ticket_sub_category_id`) WHERE ticket_sub_category_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `payments_taken_idx` ON `payments` (`taken_at`);--> statement-breakpoint
CREATE INDEX `payments_till_idx` ON `payments` (`agent_id`,`till_day`);--> statement-breakpoint
CREATE INDEX `payments_refund_idx` ON `payments` (`refund_of`) WHERE refund_of IS NOT NULL;--> statement-breakpoint
CREATE TABLE `till_closes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`day` text NOT NULL,
	`expected_cash` integer NOT NULL,
	`expected_card` integer NOT NULL,
	`expected_other` integer NOT NULL,
	`counted_cash` integer NOT NULL,
	`counted_card` integer NOT NULL,
	`counted_other` integer NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`employee_id` integer,
	`closed_at` text NOT NULL,
	`reopened_at` text,
	`reopened_by` integer,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reopened_by`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `till_closes_open_idx` ON `till_closes` (`agent_id`,`day`) WHERE reopened_at IS NULL;--> statement-breakpoint
-- ==== Hand-written (issue 24): keep below the generated statements when renumbering. ====
-- Existing paid amounts become rows (tender `other`), dated by the newest audit row that took
-- the money (else the ticket's confirmation or creation) and attributed to its employee, so
-- every total stays what it was. Items first, then each ticket's remainder (charges, or what
-- a pay-in-full took beyond its items; negative where an item's pay was clamped on the ticket).
-- The Malta day: UTC+2 from the last Sunday of March to the last Sunday of October (01:00 UTC), else UTC+1.
CREATE TEMP TABLE `carried` AS
SELECT i.ticket_id AS ticket_id, i.id AS item_id, t.agent_id AS agent_id, i.total_paid AS amount,
  coalesce((SELECT a.at FROM audit_log a WHERE a.entity = 'ticket_sub_category' AND a.entity_id = i.id AND a.action = 'payment' ORDER BY a.id DESC LIMIT 1),
    (SELECT a.at FROM audit_log a WHERE a.entity = 'ticket' AND a.entity_id = t.id AND a.action IN ('pay_in_full', 'payment') ORDER BY a.id DESC LIMIT 1),
    t.confirmed_at, t.created_at) AS taken_at,
  coalesce((SELECT a.employee_id FROM audit_log a WHERE a.entity = 'ticket_sub_category' AND a.entity_id = i.id AND a.action = 'payment' ORDER BY a.id DESC LIMIT 1),
    (SELECT a.employee_id FROM audit_log a WHERE a.entity = 'ticket' AND a.entity_id = t.id AND a.action IN ('pay_in_full', 'payment') ORDER BY a.id DESC LIMIT 1),
    t.employee_id) AS employee_id
FROM ticket_sub_categories i JOIN tickets t ON t.id = i.ticket_id WHERE i.total_paid <> 0
UNION ALL
SELECT t.id, NULL, t.agent_id, t.total_paid - coalesce((SELECT sum(i.total_paid) FROM ticket_sub_categories i WHERE i.ticket_id = t.id), 0),
  coalesce((SELECT a.at FROM audit_log a WHERE a.entity = 'ticket' AND a.entity_id = t.id AND a.action IN ('pay_in_full', 'payment') ORDER BY a.id DESC LIMIT 1), t.confirmed_at, t.created_at),
  coalesce((SELECT a.employee_id FROM audit_log a WHERE a.entity = 'ticket' AND a.entity_id = t.id AND a.action IN ('pay_in_full', 'payment') ORDER BY a.id DESC LIMIT 1), t.employee_id)
FROM tickets t WHERE t.total_paid <> coalesce((SELECT sum(i.total_paid) FROM ticket_sub_categories i WHERE i.ticket_id = t.id), 0);
--> statement-breakpoint
INSERT INTO `payments` (`ticket_id`, `ticket_sub_category_id`, `agent_id`, `employee_id`, `amount`, `tender`, `reason`, `taken_at`, `till_day`)
SELECT ticket_id, item_id, agent_id, (SELECT e.id FROM employees e WHERE e.id = carried.employee_id), amount, 'other', 'carried over (migration 0010)', taken_at,
  date(taken_at, CASE WHEN taken_at >= date(substr(taken_at, 1, 4) || '-03-25', 'weekday 0') || 'T01:00:00'
                       AND taken_at < date(substr(taken_at, 1, 4) || '-10-25', 'weekday 0') || 'T01:00:00' THEN '+2 hours' ELSE '+1 hour' END)
FROM carried ORDER BY taken_at, ticket_id, item_id;
--> statement-breakpoint
DROP TABLE `carried`;
--> statement-breakpoint
-- Rows are never updated or deleted: money leaves by a refund row.
CREATE TRIGGER `payments_no_update` BEFORE UPDATE ON `payments` BEGIN SELECT RAISE(ABORT, 'payments are append-only'); END;
--> statement-breakpoint
CREATE TRIGGER `payments_no_delete` BEFORE DELETE ON `payments` BEGIN SELECT RAISE(ABORT, 'payments are append-only'); END;
--> statement-breakpoint
-- A row and its totals are one write: the insert adds its amount to the item's and the ticket's total_paid.
CREATE TRIGGER `payments_keep_totals` AFTER INSERT ON `payments` BEGIN
  UPDATE `ticket_sub_categories` SET `total_paid` = `total_paid` + NEW.`amount` WHERE NEW.`ticket_sub_category_id` IS NOT NULL AND `id` = NEW.`ticket_sub_category_id`;
  UPDATE `tickets` SET `total_paid` = `total_paid` + NEW.`amount` WHERE `id` = NEW.`ticket_id`;
END;
