ALTER TABLE `jobs` DROP COLUMN `counts`;--> statement-breakpoint
ALTER TABLE `steps` DROP COLUMN `counts`;