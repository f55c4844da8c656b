CREATE TABLE `sessions` (
	`id` integer PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`proved_at` integer,
	`last_seen_at` integer,
	`user_agent` text,
	`place` text,
	`browser_id` text,
	`browser_trusted` integer DEFAULT false NOT NULL
);
