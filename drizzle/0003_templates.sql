CREATE TABLE `templates` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`format` text NOT NULL,
	`text` text NOT NULL,
	`parameter_values` text NOT NULL,
	`error_count` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `templates_name` ON `templates` (`name`);--> statement-breakpoint
CREATE INDEX `templates_updated` ON `templates` (`updated_at`);