ALTER TABLE `signatures` ADD `agent_id` integer REFERENCES agents(id);--> statement-breakpoint
ALTER TABLE `signatures` ADD `bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `signatures_agent_bytes_idx` ON `signatures` (`agent_id`,`bytes`);--> statement-breakpoint
-- ==== Hand-written (issue 22): keep below the generated statements when renumbering. ====
-- Sizes and shops of the signatures already kept: the shop is the one whose ticket log rows
-- reference the signature (one change, one caller). One pass over the log, at upgrade only.
UPDATE `signatures` SET `bytes` = octet_length(`data_url`);
--> statement-breakpoint
UPDATE `signatures` SET `agent_id` = l.agent_id
FROM (SELECT signature_id, min(agent_id) AS agent_id FROM ticket_log_states WHERE signature_id IS NOT NULL AND agent_id IS NOT NULL GROUP BY signature_id) AS l
WHERE l.signature_id = `signatures`.`id`;
--> statement-breakpoint
-- Every writer keeps them: the size as the row is written, the shop when its change's first
-- ticket log row names it (in the same transaction).
CREATE TRIGGER `signatures_bytes` AFTER INSERT ON `signatures`
BEGIN UPDATE `signatures` SET `bytes` = octet_length(NEW.`data_url`) WHERE `id` = NEW.`id`; END;
--> statement-breakpoint
CREATE TRIGGER `signatures_shop` AFTER INSERT ON `ticket_log_states` WHEN NEW.`signature_id` IS NOT NULL AND NEW.`agent_id` IS NOT NULL
BEGIN UPDATE `signatures` SET `agent_id` = NEW.`agent_id` WHERE `id` = NEW.`signature_id` AND `agent_id` IS NULL; END;
