CREATE TABLE `public_bookings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` text NOT NULL,
	`phone` text NOT NULL,
	`locality_id` integer NOT NULL,
	`street` text NOT NULL,
	`number` text NOT NULL,
	`day` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`agent_id` integer,
	`status` text DEFAULT 'received' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`applied_at` text,
	FOREIGN KEY (`locality_id`) REFERENCES `localities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `public_bookings_uid_unique` ON `public_bookings` (`uid`);--> statement-breakpoint
CREATE INDEX `public_bookings_day_idx` ON `public_bookings` (`day`,`locality_id`,`status`);--> statement-breakpoint
CREATE TABLE `public_otps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`phone` text NOT NULL,
	`code_hash` text NOT NULL,
	`salt` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`expires_at` text NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	`used_at` text
);
--> statement-breakpoint
CREATE INDEX `public_otps_phone_idx` ON `public_otps` (`phone`,`id`);--> statement-breakpoint
CREATE TABLE `status_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`ticket_id` integer NOT NULL,
	`agent_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `status_links_token_hash_unique` ON `status_links` (`token_hash`);--> statement-breakpoint
CREATE INDEX `status_links_ticket_idx` ON `status_links` (`ticket_id`);