CREATE INDEX `users_created_idx` ON `users` (`created_at`);--> statement-breakpoint
CREATE INDEX `users_name_search_idx` ON `users` (lower("display_name"));