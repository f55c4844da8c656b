CREATE TABLE `authenticators` (
	`user_id` text PRIMARY KEY NOT NULL,
	`secret` text,
	`confirmed_at` integer,
	`last_step` integer,
	`pending_secret` text,
	`pending_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `recovery_codes` (
	`user_id` text NOT NULL,
	`hash` text NOT NULL,
	`used_at` integer,
	PRIMARY KEY(`user_id`, `hash`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
