CREATE TABLE `job_numbers` (
	`number` integer PRIMARY KEY AUTOINCREMENT NOT NULL
);
--> statement-breakpoint
ALTER TABLE `jobs` ADD `count_pending` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `count_ready` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `count_assigned` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `count_running` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `count_suspended` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `count_canceled` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `count_failed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `count_succeeded` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `jobs` ADD `count_not_compatible` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `steps` ADD `count_pending` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `steps` ADD `count_ready` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `steps` ADD `count_assigned` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `steps` ADD `count_running` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `steps` ADD `count_suspended` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `steps` ADD `count_canceled` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `steps` ADD `count_failed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `steps` ADD `count_succeeded` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `steps` ADD `count_not_compatible` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Hand-written: the counts move from the JSON column (dropped by 0009) into the new columns.
UPDATE `jobs` SET
  `count_pending` = COALESCE(json_extract(`counts`, '$.PENDING'), 0),
  `count_ready` = COALESCE(json_extract(`counts`, '$.READY'), 0),
  `count_assigned` = COALESCE(json_extract(`counts`, '$.ASSIGNED'), 0),
  `count_running` = COALESCE(json_extract(`counts`, '$.RUNNING'), 0),
  `count_suspended` = COALESCE(json_extract(`counts`, '$.SUSPENDED'), 0),
  `count_canceled` = COALESCE(json_extract(`counts`, '$.CANCELED'), 0),
  `count_failed` = COALESCE(json_extract(`counts`, '$.FAILED'), 0),
  `count_succeeded` = COALESCE(json_extract(`counts`, '$.SUCCEEDED'), 0),
  `count_not_compatible` = COALESCE(json_extract(`counts`, '$.NOT_COMPATIBLE'), 0);--> statement-breakpoint
UPDATE `steps` SET
  `count_pending` = COALESCE(json_extract(`counts`, '$.PENDING'), 0),
  `count_ready` = COALESCE(json_extract(`counts`, '$.READY'), 0),
  `count_assigned` = COALESCE(json_extract(`counts`, '$.ASSIGNED'), 0),
  `count_running` = COALESCE(json_extract(`counts`, '$.RUNNING'), 0),
  `count_suspended` = COALESCE(json_extract(`counts`, '$.SUSPENDED'), 0),
  `count_canceled` = COALESCE(json_extract(`counts`, '$.CANCELED'), 0),
  `count_failed` = COALESCE(json_extract(`counts`, '$.FAILED'), 0),
  `count_succeeded` = COALESCE(json_extract(`counts`, '$.SUCCEEDED'), 0),
  `count_not_compatible` = COALESCE(json_extract(`counts`, '$.NOT_COMPATIBLE'), 0);--> statement-breakpoint
-- Hand-written: numbering goes on after the highest job number in use.
INSERT INTO `job_numbers` (`number`) SELECT `seq` FROM `jobs` ORDER BY `seq` DESC LIMIT 1;
