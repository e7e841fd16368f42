CREATE TABLE `inbound_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source` text NOT NULL,
	`source_id` text NOT NULL,
	`agent_id` integer,
	`customer_id` integer,
	`reminder_id` integer,
	`phone` text NOT NULL,
	`text` text NOT NULL,
	`received_at` text NOT NULL,
	`action` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`handled_at` text,
	`handled_by` integer,
	`reply_message_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reminder_id`) REFERENCES `reminders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`handled_by`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`reply_message_id`) REFERENCES `outgoing_messages`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `inbound_messages_source_id_unique` ON `inbound_messages` (`source_id`);--> statement-breakpoint
CREATE INDEX `inbound_messages_inbox_idx` ON `inbound_messages` (`agent_id`,`handled_at`,`id`);--> statement-breakpoint
CREATE INDEX `inbound_messages_customer_idx` ON `inbound_messages` (`customer_id`,`id`);--> statement-breakpoint
CREATE TABLE `reminders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`ticket_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`pickup_date` text NOT NULL,
	`outcome` text NOT NULL,
	`outgoing_message_id` integer,
	`sent_at` text NOT NULL,
	`answered_at` text,
	`answer` text,
	`inbound_message_id` integer,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`outgoing_message_id`) REFERENCES `outgoing_messages`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reminders_ticket_day_uq` ON `reminders` (`ticket_id`,`pickup_date`);--> statement-breakpoint
CREATE INDEX `reminders_customer_idx` ON `reminders` (`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `reminders_day_idx` ON `reminders` (`pickup_date`);