CREATE TABLE `worker_job_failures` (
	`job_id` text NOT NULL,
	`worker_id` text NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_failure_at` integer NOT NULL,
	`last_message` text,
	`blocked_at` integer,
	PRIMARY KEY(`job_id`, `worker_id`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`worker_id`) REFERENCES `workers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `worker_job_failures_worker` ON `worker_job_failures` (`worker_id`,`blocked_at`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `retry_delay_seconds` integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `max_worker_failures` integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE `tasks` ADD `retry_at` integer;--> statement-breakpoint
ALTER TABLE `tasks` ADD `last_failed_worker_id` text;