CREATE TABLE `mail_bounces` (
	`address` text PRIMARY KEY NOT NULL,
	`bounced_at` integer NOT NULL,
	`reason` text
);
--> statement-breakpoint
ALTER TABLE `users` ADD `emergency_contact_alerts` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `backup_email` text;--> statement-breakpoint
ALTER TABLE `users` ADD `backup_email_verified_at` integer;