CREATE TABLE `task_edges` (
	`job_id` text NOT NULL,
	`up_step` integer NOT NULL,
	`up_task` integer NOT NULL,
	`down_step` integer NOT NULL,
	`down_task` integer NOT NULL,
	`group_no` integer NOT NULL,
	`met` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`job_id`, `up_step`, `up_task`, `down_step`, `down_task`, `group_no`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `task_edges_down` ON `task_edges` (`job_id`,`down_step`,`down_task`,`up_step`,`up_task`);--> statement-breakpoint
CREATE TABLE `task_groups` (
	`job_id` text NOT NULL,
	`group_no` integer NOT NULL,
	`down_step` integer NOT NULL,
	`down_task` integer NOT NULL,
	`met_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`job_id`, `group_no`),
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `task_groups_down` ON `task_groups` (`job_id`,`down_step`,`down_task`);--> statement-breakpoint
ALTER TABLE `steps` ADD `resolved_dependencies` text;--> statement-breakpoint
ALTER TABLE `tasks` ADD `waiting` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `tasks_releasable` ON `tasks` (`step_id`,`task_index`) WHERE status = 'PENDING' AND waiting = 0;