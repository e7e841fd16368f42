CREATE TABLE `import_records` (
	`kind` text NOT NULL,
	`source_id` integer NOT NULL,
	`hash` text NOT NULL,
	`run_id` integer NOT NULL,
	PRIMARY KEY(`kind`, `source_id`)
);
--> statement-breakpoint
CREATE TABLE `import_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source` text NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`status` text NOT NULL,
	`report` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `import_runs_started_idx` ON `import_runs` (`started_at`);