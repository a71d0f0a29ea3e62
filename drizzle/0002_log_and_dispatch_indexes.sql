ALTER TABLE `log_lines` ADD `job_id` text;--> statement-breakpoint
CREATE INDEX `log_lines_session_id` ON `log_lines` (`session_id`,`id`);--> statement-breakpoint
CREATE INDEX `log_lines_job_id` ON `log_lines` (`job_id`,`id`);--> statement-breakpoint
ALTER TABLE `steps` ADD `runtime_total_ms` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `steps` ADD `runtime_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `session_actions_open` ON `session_actions` (`session_id`,`seq`) WHERE status IN ('ASSIGNED', 'RUNNING');--> statement-breakpoint
CREATE INDEX `session_actions_env` ON `session_actions` (`session_id`,`seq`) WHERE environment_id IS NOT NULL;--> statement-breakpoint
UPDATE `log_lines` SET `job_id` = (SELECT `job_id` FROM `sessions` WHERE `sessions`.`id` = `log_lines`.`session_id`);
