CREATE TABLE `customer_stats` (
	`customer_id` integer PRIMARY KEY NOT NULL,
	`number_of_visits` integer DEFAULT 0 NOT NULL,
	`total_spent` integer DEFAULT 0 NOT NULL,
	`ticket_total` integer DEFAULT 0 NOT NULL,
	`outstanding_balance` integer DEFAULT 0 NOT NULL,
	`last_visit` text,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `customer_stats_spent_idx` ON `customer_stats` (`total_spent`);--> statement-breakpoint
CREATE INDEX `customer_stats_visits_idx` ON `customer_stats` (`number_of_visits`);