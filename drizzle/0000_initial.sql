CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`submitter` text DEFAULT 'anonymous' NOT NULL,
	`template_text` text NOT NULL,
	`template_format` text NOT NULL,
	`environment_templates` text NOT NULL,
	`parameters` text NOT NULL,
	`priority` integer NOT NULL,
	`suspended` integer DEFAULT false NOT NULL,
	`canceled` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`counts` text NOT NULL,
	`task_count` integer NOT NULL,
	`max_retries_per_task` integer NOT NULL,
	`max_failed_tasks` integer NOT NULL,
	`failed_task_count` integer DEFAULT 0 NOT NULL,
	`submitted_at` integer NOT NULL,
	`started_at` integer,
	`ended_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_seq_unique` ON `jobs` (`seq`);--> statement-breakpoint
CREATE INDEX `jobs_dispatch` ON `jobs` (`status`,`priority`,`seq`);--> statement-breakpoint
CREATE INDEX `jobs_submitted` ON `jobs` (`submitted_at`);--> statement-breakpoint
CREATE TABLE `log_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text NOT NULL,
	`seq` integer NOT NULL,
	`action_id` text,
	`time` integer NOT NULL,
	`line` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `log_lines_session_seq` ON `log_lines` (`session_id`,`seq`);--> statement-breakpoint
CREATE INDEX `log_lines_action` ON `log_lines` (`action_id`,`id`);--> statement-breakpoint
CREATE TABLE `pools` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`token_hash` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `pools_name_unique` ON `pools` (`name`);--> statement-breakpoint
CREATE TABLE `requests` (
	`id` text PRIMARY KEY NOT NULL,
	`job_id` text,
	`user_id` text,
	`priority` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `session_actions` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`environment_id` text,
	`step_id` text,
	`task_id` integer,
	`status` text NOT NULL,
	`exit_code` integer,
	`progress` real,
	`status_message` text,
	`fail_message` text,
	`started_at` integer,
	`ended_at` integer,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `session_actions_seq` ON `session_actions` (`session_id`,`seq`);--> statement-breakpoint
CREATE INDEX `session_actions_task` ON `session_actions` (`task_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`worker_id` text NOT NULL,
	`lease_epoch` integer NOT NULL,
	`state` text NOT NULL,
	`end_issued` integer DEFAULT false NOT NULL,
	`reserved` text NOT NULL,
	`started_at` integer NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`worker_id`) REFERENCES `workers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sessions_worker` ON `sessions` (`worker_id`,`state`);--> statement-breakpoint
CREATE INDEX `sessions_job` ON `sessions` (`job_id`);--> statement-breakpoint
CREATE TABLE `steps` (
	`id` text PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`step_index` integer NOT NULL,
	`name` text NOT NULL,
	`dependencies` text NOT NULL,
	`host_requirements` text,
	`environment_stack` text NOT NULL,
	`chunked` integer DEFAULT false NOT NULL,
	`status` text NOT NULL,
	`counts` text NOT NULL,
	`task_count` integer NOT NULL,
	`incompatible_reason` text,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `steps_job_index` ON `steps` (`job_id`,`step_index`);--> statement-breakpoint
CREATE UNIQUE INDEX `steps_job_name` ON `steps` (`job_id`,`name`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`job_id` text NOT NULL,
	`step_id` text NOT NULL,
	`task_index` integer NOT NULL,
	`parameters` text NOT NULL,
	`status` text NOT NULL,
	`failure_count` integer DEFAULT 0 NOT NULL,
	`interruption_count` integer DEFAULT 0 NOT NULL,
	`worker_id` text,
	`session_id` text,
	`progress` real,
	`status_message` text,
	`started_at` integer,
	`ended_at` integer,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`step_id`) REFERENCES `steps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_step_index` ON `tasks` (`step_id`,`task_index`);--> statement-breakpoint
CREATE INDEX `tasks_dispatch` ON `tasks` (`step_id`,`status`,`task_index`);--> statement-breakpoint
CREATE INDEX `tasks_job_status` ON `tasks` (`job_id`,`status`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`role` text DEFAULT 'artist' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_name_unique` ON `users` (`name`);--> statement-breakpoint
CREATE TABLE `workers` (
	`id` text PRIMARY KEY NOT NULL,
	`pool_id` text NOT NULL,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`capabilities` text NOT NULL,
	`lease_epoch` integer DEFAULT 1 NOT NULL,
	`last_heartbeat_at` integer NOT NULL,
	`drain` text,
	`disabled` integer DEFAULT false NOT NULL,
	`registered_at` integer NOT NULL,
	FOREIGN KEY (`pool_id`) REFERENCES `pools`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `workers_pool` ON `workers` (`pool_id`);--> statement-breakpoint
CREATE INDEX `workers_status` ON `workers` (`status`);