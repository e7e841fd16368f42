ALTER TABLE `addresses` ADD `agent_id` integer REFERENCES agents(id);--> statement-breakpoint
CREATE INDEX `addresses_agent_idx` ON `addresses` (`agent_id`);--> statement-breakpoint
ALTER TABLE `employees` ADD `pin_legacy` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `auth_failures` ADD `client` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `images` ADD `agent_id` integer REFERENCES agents(id);--> statement-breakpoint
CREATE INDEX `images_agent_idx` ON `images` (`agent_id`);--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_seen_at` text;--> statement-breakpoint
-- Existing addresses get the shop that uses them: a customer's home belongs to the
-- customer's agent, then a ticket's pickup or delivery point to the ticket's agent, then an
-- agent's premises to that agent, then whoever created it (audit trail), else head quarters.
-- Grouped joins, not correlated subqueries: tickets have no index on their address columns,
-- and a subquery per address would scan 500k tickets 50k times.
UPDATE `addresses` SET `agent_id` = x.agent_id
  FROM (SELECT address_id AS aid, agent_id, MIN(id) FROM customers WHERE address_id IS NOT NULL GROUP BY address_id) AS x
  WHERE addresses.id = x.aid AND addresses.agent_id IS NULL;--> statement-breakpoint
UPDATE `addresses` SET `agent_id` = x.agent_id
  FROM (SELECT pickup_address_id AS aid, agent_id, MIN(id) FROM tickets WHERE pickup_address_id IS NOT NULL GROUP BY pickup_address_id) AS x
  WHERE addresses.id = x.aid AND addresses.agent_id IS NULL;--> statement-breakpoint
UPDATE `addresses` SET `agent_id` = x.agent_id
  FROM (SELECT delivery_address_id AS aid, agent_id, MIN(id) FROM tickets WHERE delivery_address_id IS NOT NULL GROUP BY delivery_address_id) AS x
  WHERE addresses.id = x.aid AND addresses.agent_id IS NULL;--> statement-breakpoint
UPDATE `addresses` SET `agent_id` = x.agent_id
  FROM (SELECT address_id AS aid, id AS agent_id, MIN(id) FROM agents WHERE address_id IS NOT NULL GROUP BY address_id) AS x
  WHERE addresses.id = x.aid AND addresses.agent_id IS NULL;--> statement-breakpoint
UPDATE `addresses` SET `agent_id` = COALESCE(
  (SELECT l.agent_id FROM audit_log l WHERE l.entity = 'address' AND l.action = 'create' AND l.entity_id = addresses.id AND l.agent_id IS NOT NULL ORDER BY l.id LIMIT 1),
  (SELECT a.id FROM agents a WHERE a.is_hq = 1 ORDER BY a.id LIMIT 1)
) WHERE `agent_id` IS NULL;--> statement-breakpoint
-- Images belong to the shop of the employee who uploaded them, else head quarters.
UPDATE `images` SET `agent_id` = COALESCE(
  (SELECT e.agent_id FROM employees e WHERE e.id = images.uploaded_by),
  (SELECT a.id FROM agents a WHERE a.is_hq = 1 ORDER BY a.id LIMIT 1)
) WHERE `agent_id` IS NULL;--> statement-breakpoint
-- PINs stored so far were hashed from a number: login also tries that form once, then re-hashes.
UPDATE `employees` SET `pin_legacy` = 1;
