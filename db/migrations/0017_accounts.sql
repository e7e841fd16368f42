CREATE TABLE `account_charges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`payment_id` integer NOT NULL,
	`ticket_id` integer NOT NULL,
	`ticket_sub_category_id` integer,
	`amount` integer NOT NULL,
	`at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`payment_id`) REFERENCES `payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_sub_category_id`) REFERENCES `ticket_sub_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_charges_payment_id_unique` ON `account_charges` (`payment_id`);--> statement-breakpoint
CREATE INDEX `account_charges_account_idx` ON `account_charges` (`account_id`,`at`);--> statement-breakpoint
CREATE TABLE `account_customers` (
	`account_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	PRIMARY KEY(`account_id`, `customer_id`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `account_customers_customer_idx` ON `account_customers` (`customer_id`);--> statement-breakpoint
CREATE TABLE `account_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`method` text NOT NULL,
	`reference` text DEFAULT '' NOT NULL,
	`received_on` text NOT NULL,
	`employee_id` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `account_payments_account_idx` ON `account_payments` (`account_id`,`received_on`);--> statement-breakpoint
CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`name` text NOT NULL,
	`billing_contact` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`vat_number` text DEFAULT '' NOT NULL,
	`terms_days` integer DEFAULT 30 NOT NULL,
	`credit_limit` integer DEFAULT 0 NOT NULL,
	`discount` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `accounts_agent_idx` ON `accounts` (`agent_id`,`name`);--> statement-breakpoint
CREATE TABLE `credit_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`number` text NOT NULL,
	`year` integer NOT NULL,
	`seq` integer NOT NULL,
	`amount` integer NOT NULL,
	`reason` text NOT NULL,
	`issued_on` text NOT NULL,
	`employee_id` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credit_notes_number_unique` ON `credit_notes` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `credit_notes_series_idx` ON `credit_notes` (`agent_id`,`year`,`seq`);--> statement-breakpoint
CREATE INDEX `credit_notes_invoice_idx` ON `credit_notes` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `document_counters` (
	`agent_id` integer NOT NULL,
	`series` text NOT NULL,
	`year` integer NOT NULL,
	`last` integer NOT NULL,
	PRIMARY KEY(`agent_id`, `series`, `year`),
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `invoice_charges` (
	`invoice_id` integer NOT NULL,
	`charge_id` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`charge_id`) REFERENCES `account_charges`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_charges_charge_id_unique` ON `invoice_charges` (`charge_id`);--> statement-breakpoint
CREATE INDEX `invoice_charges_invoice_idx` ON `invoice_charges` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `invoice_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`ticket_id` integer NOT NULL,
	`ticket_sub_category_id` integer,
	`description` text NOT NULL,
	`vat_rate` integer NOT NULL,
	`net` integer NOT NULL,
	`vat` integer NOT NULL,
	`gross` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_sub_category_id`) REFERENCES `ticket_sub_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `invoice_lines_invoice_idx` ON `invoice_lines` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `invoice_prefixes` (
	`agent_id` integer PRIMARY KEY NOT NULL,
	`prefix` text NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_prefixes_prefix_unique` ON `invoice_prefixes` (`prefix`);--> statement-breakpoint
CREATE TABLE `invoice_sends` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`round` integer NOT NULL,
	`message_id` integer NOT NULL,
	`recipient` text NOT NULL,
	`employee_id` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_sends_round_idx` ON `invoice_sends` (`invoice_id`,`round`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`number` text NOT NULL,
	`year` integer NOT NULL,
	`seq` integer NOT NULL,
	`period_from` text NOT NULL,
	`period_to` text NOT NULL,
	`issued_on` text NOT NULL,
	`due_on` text NOT NULL,
	`account_name` text NOT NULL,
	`vat_number` text NOT NULL,
	`employee_id` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_number_unique` ON `invoices` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_series_idx` ON `invoices` (`agent_id`,`year`,`seq`);--> statement-breakpoint
CREATE INDEX `invoices_account_idx` ON `invoices` (`account_id`,`issued_on`);--> statement-breakpoint
CREATE TABLE `payment_allocations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_payment_id` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`amount` integer NOT NULL,
	FOREIGN KEY (`account_payment_id`) REFERENCES `account_payments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payment_allocations_payment_idx` ON `payment_allocations` (`account_payment_id`);--> statement-breakpoint
CREATE INDEX `payment_allocations_invoice_idx` ON `payment_allocations` (`invoice_id`);--> statement-breakpoint
ALTER TABLE `outgoing_messages` ADD `attachment` text;
--> statement-breakpoint
-- ==== Hand-written (issue 34): keep below any generated statements when renumbering. ====
-- Money rows of accounts are never changed or deleted; a charge is its payment row to the cent;
-- a line's net + VAT is its gross; numbers come from their shop's counter, which only steps by one
-- (gap-free series); credit notes and allocations never take more than an invoice still asks.
CREATE TRIGGER `account_charges_no_update` BEFORE UPDATE ON `account_charges` BEGIN SELECT RAISE(ABORT, 'account_charges rows are never changed'); END;
--> statement-breakpoint
CREATE TRIGGER `account_charges_no_delete` BEFORE DELETE ON `account_charges` BEGIN SELECT RAISE(ABORT, 'account_charges rows are never deleted'); END;
--> statement-breakpoint
CREATE TRIGGER `invoices_no_update` BEFORE UPDATE ON `invoices` BEGIN SELECT RAISE(ABORT, 'invoices rows are never changed'); END;
--> statement-breakpoint
CREATE TRIGGER `invoices_no_delete` BEFORE DELETE ON `invoices` BEGIN SELECT RAISE(ABORT, 'invoices rows are never deleted'); END;
--> statement-breakpoint
CREATE TRIGGER `invoice_lines_no_update` BEFORE UPDATE ON `invoice_lines` BEGIN SELECT RAISE(ABORT, 'invoice_lines rows are never changed'); END;
--> statement-breakpoint
CREATE TRIGGER `invoice_lines_no_delete` BEFORE DELETE ON `invoice_lines` BEGIN SELECT RAISE(ABORT, 'invoice_lines rows are never deleted'); END;
--> statement-breakpoint
CREATE TRIGGER `invoice_charges_no_update` BEFORE UPDATE ON `invoice_charges` BEGIN SELECT RAISE(ABORT, 'invoice_charges rows are never changed'); END;
--> statement-breakpoint
CREATE TRIGGER `invoice_charges_no_delete` BEFORE DELETE ON `invoice_charges` BEGIN SELECT RAISE(ABORT, 'invoice_charges rows are never deleted'); END;
--> statement-breakpoint
CREATE TRIGGER `credit_notes_no_update` BEFORE UPDATE ON `credit_notes` BEGIN SELECT RAISE(ABORT, 'credit_notes rows are never changed'); END;
--> statement-breakpoint
CREATE TRIGGER `credit_notes_no_delete` BEFORE DELETE ON `credit_notes` BEGIN SELECT RAISE(ABORT, 'credit_notes rows are never deleted'); END;
--> statement-breakpoint
CREATE TRIGGER `account_payments_no_update` BEFORE UPDATE ON `account_payments` BEGIN SELECT RAISE(ABORT, 'account_payments rows are never changed'); END;
--> statement-breakpoint
CREATE TRIGGER `account_payments_no_delete` BEFORE DELETE ON `account_payments` BEGIN SELECT RAISE(ABORT, 'account_payments rows are never deleted'); END;
--> statement-breakpoint
CREATE TRIGGER `payment_allocations_no_update` BEFORE UPDATE ON `payment_allocations` BEGIN SELECT RAISE(ABORT, 'payment_allocations rows are never changed'); END;
--> statement-breakpoint
CREATE TRIGGER `payment_allocations_no_delete` BEFORE DELETE ON `payment_allocations` BEGIN SELECT RAISE(ABORT, 'payment_allocations rows are never deleted'); END;
--> statement-breakpoint
CREATE TRIGGER `invoice_sends_no_update` BEFORE UPDATE ON `invoice_sends` BEGIN SELECT RAISE(ABORT, 'invoice_sends rows are never changed'); END;
--> statement-breakpoint
CREATE TRIGGER `invoice_sends_no_delete` BEFORE DELETE ON `invoice_sends` BEGIN SELECT RAISE(ABORT, 'invoice_sends rows are never deleted'); END;
--> statement-breakpoint
CREATE TRIGGER `account_charges_match` BEFORE INSERT ON `account_charges`
WHEN NOT EXISTS (SELECT 1 FROM `payments` p WHERE p.`id` = NEW.`payment_id` AND p.`tender` = 'account' AND p.`amount` = NEW.`amount` AND p.`ticket_id` = NEW.`ticket_id`)
BEGIN SELECT RAISE(ABORT, 'an account charge must be its payment row of tender account, to the cent'); END;
--> statement-breakpoint
CREATE TRIGGER `invoice_lines_sum` BEFORE INSERT ON `invoice_lines` WHEN NEW.`net` + NEW.`vat` IS NOT NEW.`gross`
BEGIN SELECT RAISE(ABORT, 'an invoice line''s net and VAT must add up to its gross'); END;
--> statement-breakpoint
CREATE TRIGGER `document_counters_step` BEFORE UPDATE ON `document_counters` WHEN NEW.`last` IS NOT OLD.`last` + 1
  OR NEW.`agent_id` IS NOT OLD.`agent_id` OR NEW.`series` IS NOT OLD.`series` OR NEW.`year` IS NOT OLD.`year`
BEGIN SELECT RAISE(ABORT, 'a document counter only moves on by one'); END;
--> statement-breakpoint
CREATE TRIGGER `document_counters_first` BEFORE INSERT ON `document_counters` WHEN NEW.`last` IS NOT 1
BEGIN SELECT RAISE(ABORT, 'a document counter starts at 1'); END;
--> statement-breakpoint
CREATE TRIGGER `document_counters_no_delete` BEFORE DELETE ON `document_counters` BEGIN SELECT RAISE(ABORT, 'document counters are never deleted'); END;
--> statement-breakpoint
CREATE TRIGGER `invoices_numbered` BEFORE INSERT ON `invoices`
WHEN NEW.`seq` IS NOT (SELECT `last` FROM `document_counters` WHERE `agent_id` = NEW.`agent_id` AND `series` = 'invoice' AND `year` = NEW.`year`)
BEGIN SELECT RAISE(ABORT, 'an invoice takes the next number of its shop''s series'); END;
--> statement-breakpoint
CREATE TRIGGER `credit_notes_numbered` BEFORE INSERT ON `credit_notes`
WHEN NEW.`seq` IS NOT (SELECT `last` FROM `document_counters` WHERE `agent_id` = NEW.`agent_id` AND `series` = 'credit' AND `year` = NEW.`year`)
BEGIN SELECT RAISE(ABORT, 'a credit note takes the next number of its shop''s series'); END;
--> statement-breakpoint
CREATE TRIGGER `credit_notes_within` BEFORE INSERT ON `credit_notes`
WHEN NEW.`amount` <= 0 OR NEW.`amount` > (SELECT coalesce(sum(`gross`), 0) FROM `invoice_lines` WHERE `invoice_id` = NEW.`invoice_id`)
  - (SELECT coalesce(sum(`amount`), 0) FROM `credit_notes` WHERE `invoice_id` = NEW.`invoice_id`)
  - (SELECT coalesce(sum(`amount`), 0) FROM `payment_allocations` WHERE `invoice_id` = NEW.`invoice_id`)
BEGIN SELECT RAISE(ABORT, 'a credit note takes off at most what its invoice still asks'); END;
--> statement-breakpoint
CREATE TRIGGER `payment_allocations_within` BEFORE INSERT ON `payment_allocations`
WHEN NEW.`amount` <= 0
  OR NEW.`amount` > (SELECT `amount` FROM `account_payments` WHERE `id` = NEW.`account_payment_id`)
    - (SELECT coalesce(sum(`amount`), 0) FROM `payment_allocations` WHERE `account_payment_id` = NEW.`account_payment_id`)
  OR NEW.`amount` > (SELECT coalesce(sum(`gross`), 0) FROM `invoice_lines` WHERE `invoice_id` = NEW.`invoice_id`)
    - (SELECT coalesce(sum(`amount`), 0) FROM `credit_notes` WHERE `invoice_id` = NEW.`invoice_id`)
    - (SELECT coalesce(sum(`amount`), 0) FROM `payment_allocations` WHERE `invoice_id` = NEW.`invoice_id`)
  OR (SELECT `account_id` FROM `account_payments` WHERE `id` = NEW.`account_payment_id`) IS NOT (SELECT `account_id` FROM `invoices` WHERE `id` = NEW.`invoice_id`)
BEGIN SELECT RAISE(ABORT, 'an allocation takes at most what its payment holds and its invoice still asks, on the same account'); END;
--> statement-breakpoint
CREATE TRIGGER `account_payments_positive` BEFORE INSERT ON `account_payments` WHEN NEW.`amount` <= 0
BEGIN SELECT RAISE(ABORT, 'a payment on account is more than 0'); END;
