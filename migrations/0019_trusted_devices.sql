CREATE TABLE `browsers` (
	`user_id` text NOT NULL,
	`id` text NOT NULL,
	`user_agent` text,
	`place` text,
	`first_used_at` integer NOT NULL,
	`last_used_at` integer NOT NULL,
	`trusted_at` integer,
	PRIMARY KEY(`user_id`, `id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `sessions` ADD `browser_id` text;--> statement-breakpoint
ALTER TABLE `webauthn_credentials` ADD `trusted_at` integer;