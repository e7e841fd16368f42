CREATE TABLE `addresses` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`number` text DEFAULT '' NOT NULL,
	`locality_id` integer NOT NULL,
	`street_id` integer NOT NULL,
	FOREIGN KEY (`locality_id`) REFERENCES `localities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`street_id`) REFERENCES `streets`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `addresses_locality_idx` ON `addresses` (`locality_id`);--> statement-breakpoint
CREATE TABLE `localities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `localities_name_unique` ON `localities` (`name`);--> statement-breakpoint
CREATE TABLE `streets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`locality_id` integer NOT NULL,
	`name` text NOT NULL,
	FOREIGN KEY (`locality_id`) REFERENCES `localities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `streets_locality_idx` ON `streets` (`locality_id`,`name`);--> statement-breakpoint
CREATE TABLE `agents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`type` text DEFAULT 'SHOP' NOT NULL,
	`user_name` text NOT NULL,
	`password_hash` text,
	`landline` text DEFAULT '' NOT NULL,
	`mobile` text DEFAULT '' NOT NULL,
	`address_id` integer,
	`commission` integer DEFAULT 0 NOT NULL,
	`contact_person` text DEFAULT '' NOT NULL,
	`email_address` text DEFAULT '' NOT NULL,
	`queens` integer DEFAULT false NOT NULL,
	`detail` text,
	`can_see_action` text,
	`is_hq` integer DEFAULT false NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agents_user_name_unique` ON `agents` (`user_name`);--> statement-breakpoint
CREATE TABLE `customer_preferences` (
	`customer_id` integer NOT NULL,
	`preference_id` integer NOT NULL,
	PRIMARY KEY(`customer_id`, `preference_id`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`preference_id`) REFERENCES `preferences`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `customers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`title` text DEFAULT '' NOT NULL,
	`full_name` text NOT NULL,
	`first_name` text DEFAULT '' NOT NULL,
	`last_name` text DEFAULT '' NOT NULL,
	`address_id` integer,
	`mobile` text DEFAULT '' NOT NULL,
	`landline` text DEFAULT '' NOT NULL,
	`email_address` text DEFAULT '' NOT NULL,
	`date_of_birth` text,
	`id_card` text DEFAULT '' NOT NULL,
	`discount` integer DEFAULT 0 NOT NULL,
	`occupation` text DEFAULT '' NOT NULL,
	`comments` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `customers_agent_idx` ON `customers` (`agent_id`);--> statement-breakpoint
CREATE INDEX `customers_mobile_idx` ON `customers` (`mobile`);--> statement-breakpoint
CREATE INDEX `customers_landline_idx` ON `customers` (`landline`);--> statement-breakpoint
CREATE INDEX `customers_email_idx` ON `customers` (`email_address`);--> statement-breakpoint
CREATE INDEX `customers_id_card_idx` ON `customers` (`id_card`);--> statement-breakpoint
CREATE TABLE `employees` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`full_name` text NOT NULL,
	`mobile` text DEFAULT '' NOT NULL,
	`landline` text DEFAULT '' NOT NULL,
	`role` text NOT NULL,
	`pin_hash` text NOT NULL,
	`accumulated` integer DEFAULT 0 NOT NULL,
	`pending` integer DEFAULT 0 NOT NULL,
	`enable_login` integer DEFAULT true NOT NULL,
	`hq` integer DEFAULT false NOT NULL,
	`localities` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `employees_agent_pin_uq` ON `employees` (`agent_id`,`pin_hash`);--> statement-breakpoint
CREATE INDEX `employees_agent_idx` ON `employees` (`agent_id`);--> statement-breakpoint
CREATE TABLE `preferences` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `preferences_name_unique` ON `preferences` (`name`);--> statement-breakpoint
CREATE TABLE `action_garment_sub_categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`garment_sub_category_id` integer NOT NULL,
	`action_id` integer NOT NULL,
	`price` integer DEFAULT 0 NOT NULL,
	`discount` text,
	`is_percentage_of` integer,
	FOREIGN KEY (`garment_sub_category_id`) REFERENCES `garment_sub_categories`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`action_id`) REFERENCES `actions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`is_percentage_of`) REFERENCES `action_garment_sub_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `agsc_garment_action_uq` ON `action_garment_sub_categories` (`garment_sub_category_id`,`action_id`);--> statement-breakpoint
CREATE TABLE `actions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`image` text,
	`visible` integer DEFAULT true NOT NULL,
	`is_percentage_of` integer,
	`up_charge` integer DEFAULT 0 NOT NULL,
	`images_required` integer DEFAULT false NOT NULL,
	`discount` text DEFAULT 'PERCENTAGE 0' NOT NULL,
	FOREIGN KEY (`is_percentage_of`) REFERENCES `actions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `configurations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`month` text NOT NULL,
	`action_id` integer NOT NULL,
	`amounts` text DEFAULT '0,0,0,0,0,0,0' NOT NULL,
	FOREIGN KEY (`action_id`) REFERENCES `actions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `configurations_month_idx` ON `configurations` (`month`,`action_id`);--> statement-breakpoint
CREATE TABLE `garment_categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`visible` integer DEFAULT true NOT NULL,
	`image` text,
	`order` integer DEFAULT 0 NOT NULL,
	`default_action_id` integer,
	FOREIGN KEY (`default_action_id`) REFERENCES `actions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `garment_sub_categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`garment_category_id` integer NOT NULL,
	`name` text NOT NULL,
	`visible` integer DEFAULT true NOT NULL,
	`image` text,
	`discount` text DEFAULT 'PERCENTAGE 0' NOT NULL,
	`pieces` text DEFAULT '' NOT NULL,
	`images_required` integer DEFAULT false NOT NULL,
	`show_choose_pieces` integer DEFAULT false NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	`allow_quantity` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`garment_category_id`) REFERENCES `garment_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `garment_sub_categories_cat_idx` ON `garment_sub_categories` (`garment_category_id`,`order`);--> statement-breakpoint
CREATE TABLE `modifiers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`parent_id` integer DEFAULT 0 NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`image` text,
	`discount` text DEFAULT 'PERCENTAGE 0' NOT NULL,
	`visible` integer DEFAULT true NOT NULL,
	`up_charge` integer DEFAULT 0 NOT NULL,
	`order` integer DEFAULT 0 NOT NULL,
	`is_percentage` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX `modifiers_type_idx` ON `modifiers` (`type`,`parent_id`,`order`);--> statement-breakpoint
CREATE TABLE `pickup_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`season` text NOT NULL,
	`from` text,
	`to` text,
	`day_of_week` integer NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	`localities` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `employee_owings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` integer NOT NULL,
	`employee_id` integer NOT NULL,
	`ticket_sub_category_id` integer,
	`amount` integer DEFAULT 0 NOT NULL,
	`percentage` integer DEFAULT 100 NOT NULL,
	`payment_date` text,
	`state` text DEFAULT 'OPEN' NOT NULL,
	`paid_in_full` integer DEFAULT false NOT NULL,
	`employee_payment_date` text,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ticket_sub_category_id`) REFERENCES `ticket_sub_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `owings_employee_idx` ON `employee_owings` (`employee_id`,`state`);--> statement-breakpoint
CREATE TABLE `item_log_states` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_sub_category_id` integer NOT NULL,
	`state` text NOT NULL,
	`logged_at` text NOT NULL,
	`log` text DEFAULT '' NOT NULL,
	`employee_id` integer,
	`signature_id` integer,
	FOREIGN KEY (`ticket_sub_category_id`) REFERENCES `ticket_sub_categories`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`signature_id`) REFERENCES `signatures`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ils_item_idx` ON `item_log_states` (`ticket_sub_category_id`);--> statement-breakpoint
CREATE INDEX `ils_logged_idx` ON `item_log_states` (`logged_at`);--> statement-breakpoint
CREATE TABLE `signatures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`data_url` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `ticket_log_states` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` integer NOT NULL,
	`state` text NOT NULL,
	`logged_at` text NOT NULL,
	`log` text DEFAULT '' NOT NULL,
	`employee_id` integer,
	`agent_id` integer,
	`signature_id` integer,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`signature_id`) REFERENCES `signatures`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tls_ticket_idx` ON `ticket_log_states` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `tls_logged_idx` ON `ticket_log_states` (`logged_at`);--> statement-breakpoint
CREATE TABLE `ticket_states` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`position` integer NOT NULL,
	`is_locality_delivery` integer DEFAULT false NOT NULL,
	`prices_on_receipt` integer DEFAULT true NOT NULL,
	`hidden_in_lists` integer DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ticket_states_name_unique` ON `ticket_states` (`name`);--> statement-breakpoint
CREATE TABLE `ticket_sub_categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_id` integer NOT NULL,
	`garment_sub_category_id` integer NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`discount` text DEFAULT 'PERCENTAGE 0' NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`state` text DEFAULT 'CREATED' NOT NULL,
	`comments` text DEFAULT '' NOT NULL,
	`location` text DEFAULT '' NOT NULL,
	`pieces` text DEFAULT '' NOT NULL,
	`sorted_items` text DEFAULT '' NOT NULL,
	`sorted` integer DEFAULT false NOT NULL,
	`has_express` integer DEFAULT false NOT NULL,
	`detail` text,
	`total` integer DEFAULT 0 NOT NULL,
	`pre_discount_total` integer DEFAULT 0 NOT NULL,
	`total_override` integer,
	`total_paid` integer DEFAULT 0 NOT NULL,
	`process_date` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`garment_sub_category_id`) REFERENCES `garment_sub_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tsc_ticket_idx` ON `ticket_sub_categories` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `tsc_state_idx` ON `ticket_sub_categories` (`state`);--> statement-breakpoint
CREATE INDEX `tsc_express_idx` ON `ticket_sub_categories` (`has_express`,`state`);--> statement-breakpoint
CREATE TABLE `ticket_sub_category_actions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_sub_category_id` integer NOT NULL,
	`action_id` integer NOT NULL,
	`name` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`price` integer DEFAULT 0 NOT NULL,
	`images` text DEFAULT '[]' NOT NULL,
	FOREIGN KEY (`ticket_sub_category_id`) REFERENCES `ticket_sub_categories`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`action_id`) REFERENCES `actions`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tsca_item_idx` ON `ticket_sub_category_actions` (`ticket_sub_category_id`);--> statement-breakpoint
CREATE TABLE `ticket_sub_category_modifiers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ticket_sub_category_id` integer NOT NULL,
	`modifier_id` integer NOT NULL,
	`modifier_type` text NOT NULL,
	FOREIGN KEY (`ticket_sub_category_id`) REFERENCES `ticket_sub_categories`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`modifier_id`) REFERENCES `modifiers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tscm_item_idx` ON `ticket_sub_category_modifiers` (`ticket_sub_category_id`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`employee_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`pickup_date` text,
	`delivery_date` text,
	`pickup_comment` text DEFAULT '' NOT NULL,
	`delivery_comment` text DEFAULT '' NOT NULL,
	`delivery_to_client` integer DEFAULT false NOT NULL,
	`pickup_from_client` integer DEFAULT false NOT NULL,
	`has_express_item` integer DEFAULT false NOT NULL,
	`state` text DEFAULT 'CREATED' NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`total_paid` integer DEFAULT 0 NOT NULL,
	`delivery_charge` integer DEFAULT 0 NOT NULL,
	`pickup_charge` integer DEFAULT 0 NOT NULL,
	`delivery_address_id` integer,
	`pickup_address_id` integer,
	`confirmed_at` text,
	`discount` text DEFAULT 'PERCENTAGE 0' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`delivery_address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`pickup_address_id`) REFERENCES `addresses`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tickets_customer_idx` ON `tickets` (`customer_id`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_agent_state_idx` ON `tickets` (`agent_id`,`state`,`id`);--> statement-breakpoint
CREATE INDEX `tickets_delivery_idx` ON `tickets` (`delivery_date`);--> statement-breakpoint
CREATE INDEX `tickets_pickup_idx` ON `tickets` (`pickup_date`);--> statement-breakpoint
CREATE INDEX `tickets_confirmed_idx` ON `tickets` (`confirmed_at`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` text NOT NULL,
	`agent_id` integer,
	`employee_id` integer,
	`action` text NOT NULL,
	`entity` text NOT NULL,
	`entity_id` integer,
	`detail` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_entity_idx` ON `audit_log` (`entity`,`entity_id`);--> statement-breakpoint
CREATE TABLE `auth_failures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`agent_id` integer NOT NULL,
	`at` text NOT NULL,
	`cleared_at` text
);
--> statement-breakpoint
CREATE INDEX `auth_failures_idx` ON `auth_failures` (`kind`,`agent_id`,`at`);--> statement-breakpoint
CREATE TABLE `box_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`key` text PRIMARY KEY NOT NULL,
	`scope` text NOT NULL,
	`status` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `images` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file` text NOT NULL,
	`mime` text NOT NULL,
	`size` integer NOT NULL,
	`uploaded_by` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `images_file_unique` ON `images` (`file`);--> statement-breakpoint
CREATE TABLE `outgoing_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`employee_id` integer,
	`customer_id` integer,
	`ticket_id` integer,
	`channel` text NOT NULL,
	`recipient` text NOT NULL,
	`text` text NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`sent_at` text,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `outgoing_messages_status_idx` ON `outgoing_messages` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `print_jobs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` integer NOT NULL,
	`employee_id` integer,
	`kind` text NOT NULL,
	`printer` text NOT NULL,
	`encoding` text NOT NULL,
	`ticket_id` integer,
	`ticket_sub_category_id` integer,
	`payload` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'queued' NOT NULL,
	`error` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `print_jobs_status_idx` ON `print_jobs` (`status`,`id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`jti` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`agent_id` integer NOT NULL,
	`employee_id` integer,
	`parent_jti` text,
	`issued_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`employee_id`) REFERENCES `employees`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sessions_agent_idx` ON `sessions` (`agent_id`);--> statement-breakpoint
CREATE INDEX `sessions_employee_idx` ON `sessions` (`employee_id`);