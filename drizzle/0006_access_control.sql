CREATE TABLE `access_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`scope` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer,
	`last_used_at` integer,
	`last_used_address` text,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `access_tokens_token_hash_unique` ON `access_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `access_tokens_user` ON `access_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`time` integer NOT NULL,
	`actor_kind` text NOT NULL,
	`actor_id` text,
	`actor_name` text NOT NULL,
	`via` text,
	`action` text NOT NULL,
	`target_kind` text,
	`target_id` text,
	`outcome` text NOT NULL,
	`before` text,
	`after` text,
	`detail` text,
	`address` text,
	`user_agent` text
);
--> statement-breakpoint
CREATE INDEX `audit_time` ON `audit_log` (`time`);--> statement-breakpoint
CREATE INDEX `audit_action_target` ON `audit_log` (`action`,`target_id`,`time`);--> statement-breakpoint
CREATE INDEX `audit_action_address` ON `audit_log` (`action`,`address`,`time`);--> statement-breakpoint
CREATE INDEX `audit_actor` ON `audit_log` (`actor_name`,`time`);--> statement-breakpoint
CREATE TABLE `auth_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`address` text,
	`user_agent` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auth_sessions_token_hash_unique` ON `auth_sessions` (`token_hash`);--> statement-breakpoint
CREATE INDEX `auth_sessions_user` ON `auth_sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `server_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `jobs` ADD `owner_id` text;--> statement-breakpoint
CREATE INDEX `jobs_owner` ON `jobs` (`owner_id`);--> statement-breakpoint
ALTER TABLE `pools` ADD `token_generation` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `pools` ADD `previous_token_hash` text;--> statement-breakpoint
ALTER TABLE `pools` ADD `previous_token_expires_at` integer;--> statement-breakpoint
ALTER TABLE `session_actions` ADD `assigned_at` integer;--> statement-breakpoint
ALTER TABLE `session_actions` ADD `log_chars` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `log_chars` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` ADD `log_dropped` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `templates` ADD `owner_id` text;--> statement-breakpoint
ALTER TABLE `users` ADD `kind` text DEFAULT 'person' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `password_hash` text;--> statement-breakpoint
ALTER TABLE `users` ADD `disabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `updated_at` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `workers` ADD `credential_hash` text;--> statement-breakpoint
ALTER TABLE `workers` ADD `token_generation` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `workers` ADD `removed_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `workers_credential` ON `workers` (`credential_hash`);