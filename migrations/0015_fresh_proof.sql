ALTER TABLE `sessions` ADD `proved_at` integer;--> statement-breakpoint
ALTER TABLE `sessions` ADD `user_agent` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `place` text;--> statement-breakpoint
ALTER TABLE `sessions` ADD `last_seen_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `deletion_requested_at` integer;--> statement-breakpoint
CREATE INDEX `users_deletion_idx` ON `users` (`deletion_requested_at`) WHERE deletion_requested_at is not null;