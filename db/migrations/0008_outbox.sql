ALTER TABLE `outgoing_messages` RENAME COLUMN "error" TO "last_error";--> statement-breakpoint
CREATE TABLE `message_batches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`employee_id` integer,
	`text` text NOT NULL,
	`all_customers` integer DEFAULT false NOT NULL,
	`queued` integer DEFAULT 0 NOT NULL,
	`skipped_no_messages` integer DEFAULT 0 NOT NULL,
	`skipped_no_address` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `message_templates` (
	`state_id` integer PRIMARY KEY NOT NULL,
	`text` text NOT NULL,
	`updated_at` text NOT NULL,
	`updated_by` integer,
	FOREIGN KEY (`state_id`) REFERENCES `ticket_states`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
DROP INDEX `outgoing_messages_status_idx`;--> statement-breakpoint
-- SQLite adds a NOT NULL column only with a default: rows from before the outbox get a key
-- and an updated_at below; the appliance always writes both.
ALTER TABLE `outgoing_messages` ADD `key` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `outgoing_messages` ADD `batch_id` integer REFERENCES message_batches(id);--> statement-breakpoint
ALTER TABLE `outgoing_messages` ADD `subject` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `outgoing_messages` ADD `next_attempt_at` text;--> statement-breakpoint
ALTER TABLE `outgoing_messages` ADD `claimed_at` text;--> statement-breakpoint
ALTER TABLE `outgoing_messages` ADD `gateway_id` text;--> statement-breakpoint
ALTER TABLE `outgoing_messages` ADD `updated_at` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Rows written before the outbox were never sent by anything: they stay unsent (failed, retryable by a person), never sent by surprise.
UPDATE `outgoing_messages` SET `key` = lower(hex(randomblob(16))), `updated_at` = `created_at`, `status` = CASE WHEN `status` = 'sent' THEN 'sent' ELSE 'failed' END, `last_error` = CASE WHEN `status` = 'sent' THEN `last_error` ELSE 'Queued before the outbox existed; not sent' END;--> statement-breakpoint
CREATE UNIQUE INDEX `outgoing_messages_key_unique` ON `outgoing_messages` (`key`);--> statement-breakpoint
CREATE INDEX `outgoing_messages_sender_idx` ON `outgoing_messages` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outgoing_messages_customer_idx` ON `outgoing_messages` (`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `outgoing_messages_ticket_idx` ON `outgoing_messages` (`ticket_id`,`id`);--> statement-breakpoint
CREATE INDEX `outgoing_messages_batch_idx` ON `outgoing_messages` (`batch_id`,`status`);--> statement-breakpoint
CREATE INDEX `outgoing_messages_employee_idx` ON `outgoing_messages` (`employee_id`);--> statement-breakpoint
ALTER TABLE `customers` ADD `no_messages` integer DEFAULT false NOT NULL;