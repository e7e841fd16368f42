CREATE TABLE `deposits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`agent_id` integer NOT NULL,
	`employee_id` integer,
	`kind` text NOT NULL,
	`amount` integer NOT NULL,
	`tender` text NOT NULL,
	`payment_id` integer,
	`refund_of` integer,
	`reason` text,
	`transfer_id` text,
	`approved_by` integer,
	`taken_at` text NOT NULL,
	`till_day` text NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`refund_of`) REFERENCES `deposits`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`approved_by`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `deposits_customer_idx` ON `deposits` (`customer_id`,`agent_id`);--> statement-breakpoint
CREATE INDEX `deposits_till_idx` ON `deposits` (`agent_id`,`till_day`);--> statement-breakpoint
CREATE UNIQUE INDEX `deposits_payment_idx` ON `deposits` (`payment_id`) WHERE payment_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX `deposits_refund_idx` ON `deposits` (`refund_of`) WHERE refund_of IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `deposits_transfer_idx` ON `deposits` (`transfer_id`,`kind`) WHERE transfer_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `account_codes` (
	`key` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`name` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
-- ==== Hand-written (issue 34): keep below any generated statements when renumbering. ====
-- The deposit ledger holds its invariants itself: rows are never changed or removed; a kind is
-- one of the ledger's; a customer's balance at a shop (the sum of their rows there) never goes
-- below zero; and every payment row of tender `balance` has its spend row, written by the
-- database in the same statement (a refund of such a payment, a negative row, puts it back).
-- The spend counts at the shop whose drawer the payment counts in (payments/takings.ts,
-- DRAWER_SQL): the taker's shop, else the ticket's.
CREATE TRIGGER `deposits_no_update` BEFORE UPDATE ON `deposits`
BEGIN SELECT RAISE(ABORT, 'deposit rows are never changed'); END;
--> statement-breakpoint
CREATE TRIGGER `deposits_no_delete` BEFORE DELETE ON `deposits`
BEGIN SELECT RAISE(ABORT, 'deposit rows are never deleted'); END;
--> statement-breakpoint
CREATE TRIGGER `deposits_kind` BEFORE INSERT ON `deposits`
WHEN NEW.`kind` NOT IN ('deposit', 'refund', 'spend', 'transfer_out', 'transfer_in')
  OR (NEW.`kind` = 'deposit' AND NEW.`amount` <= 0)
  OR (NEW.`kind` IN ('refund', 'transfer_out') AND NEW.`amount` >= 0)
  OR (NEW.`kind` = 'transfer_in' AND NEW.`amount` <= 0)
  OR ((NEW.`kind` = 'spend') <> (NEW.`payment_id` IS NOT NULL))
  OR ((NEW.`kind` = 'spend') <> (NEW.`tender` = 'balance'))
BEGIN SELECT RAISE(ABORT, 'not a deposit ledger row'); END;
--> statement-breakpoint
CREATE TRIGGER `deposits_not_below_zero` BEFORE INSERT ON `deposits`
WHEN NEW.`amount` < 0 AND (SELECT coalesce(sum(`amount`), 0) FROM `deposits` WHERE `customer_id` = NEW.`customer_id` AND `agent_id` = NEW.`agent_id`) + NEW.`amount` < 0
BEGIN SELECT RAISE(ABORT, 'Not enough balance'); END;
--> statement-breakpoint
CREATE TRIGGER `payments_spend_balance` AFTER INSERT ON `payments` WHEN NEW.`tender` = 'balance'
BEGIN
  INSERT INTO `deposits` (`customer_id`, `agent_id`, `employee_id`, `kind`, `amount`, `tender`, `payment_id`, `reason`, `taken_at`, `till_day`)
  VALUES (
    (SELECT `customer_id` FROM `tickets` WHERE `id` = NEW.`ticket_id`),
    coalesce((SELECT `agent_id` FROM `employees` WHERE `id` = NEW.`employee_id`), NEW.`agent_id`),
    NEW.`employee_id`, 'spend', -NEW.`amount`, 'balance', NEW.`id`, NEW.`reason`, NEW.`taken_at`, NEW.`till_day`);
END;
