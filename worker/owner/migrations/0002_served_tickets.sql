CREATE TABLE `served_tickets` (
	`ticket_id` text PRIMARY KEY NOT NULL,
	`asset_id` text NOT NULL,
	`served_at` integer NOT NULL,
	FOREIGN KEY (`asset_id`) REFERENCES `released_assets`(`id`) ON UPDATE no action ON DELETE cascade
);
