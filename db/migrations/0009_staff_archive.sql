ALTER TABLE `agents` ADD `archived_at` text;--> statement-breakpoint
ALTER TABLE `employees` ADD `archived_at` text;