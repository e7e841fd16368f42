CREATE TABLE `downlinks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` text NOT NULL,
	`kind` text NOT NULL,
	`site` text NOT NULL,
	`body` text NOT NULL,
	`issued_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `downlinks_uid_unique` ON `downlinks` (`uid`);--> statement-breakpoint
CREATE INDEX `downlinks_site_idx` ON `downlinks` (`site`,`id`);--> statement-breakpoint
CREATE TABLE `shop_bookings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`uid` text NOT NULL,
	`agent_id` integer NOT NULL,
	`phone` text NOT NULL,
	`locality_id` integer NOT NULL,
	`street` text NOT NULL,
	`number` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`booked_day` text NOT NULL,
	`day` text NOT NULL,
	`status` text DEFAULT 'received' NOT NULL,
	`customer_id` integer,
	`ticket_id` integer,
	`reason` text DEFAULT '' NOT NULL,
	`issued_at` text NOT NULL,
	`received_at` text NOT NULL,
	`applied_at` text,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`locality_id`) REFERENCES `localities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shop_bookings_uid_unique` ON `shop_bookings` (`uid`);--> statement-breakpoint
CREATE INDEX `shop_bookings_agent_idx` ON `shop_bookings` (`agent_id`,`id`);