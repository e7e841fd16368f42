CREATE TABLE `auto_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` integer NOT NULL,
	`state` text NOT NULL,
	`agent_id` integer NOT NULL,
	`outcome` text NOT NULL,
	`outgoing_message_id` integer,
	`state_log_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`outgoing_message_id`) REFERENCES `outgoing_messages`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auto_messages_ticket_state_uq` ON `auto_messages` (`ticket_id`,`state`);--> statement-breakpoint
ALTER TABLE `message_templates` ADD `auto_send` integer DEFAULT false NOT NULL;