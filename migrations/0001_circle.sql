CREATE TABLE `approvers` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`full_name` text NOT NULL,
	`email` text NOT NULL,
	`role` text NOT NULL,
	`email_verified_at` integer,
	`verification_nonce` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `approvers_owner_email_unique` ON `approvers` (`owner_id`,`email`);--> statement-breakpoint
CREATE INDEX `approvers_owner_idx` ON `approvers` (`owner_id`);--> statement-breakpoint
CREATE TABLE `beneficiaries` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`full_name` text NOT NULL,
	`email` text NOT NULL,
	`relationship` text NOT NULL,
	`public_key` text NOT NULL,
	`public_key_fingerprint` text NOT NULL,
	`key_version` integer DEFAULT 1 NOT NULL,
	`email_verified_at` integer,
	`verification_nonce` text,
	`identity_status` text DEFAULT 'unverified' NOT NULL,
	`send_asset_notifications` integer DEFAULT true NOT NULL,
	`delay_notifications` integer DEFAULT false NOT NULL,
	`notification_status` text DEFAULT 'pending' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `beneficiaries_owner_email_unique` ON `beneficiaries` (`owner_id`,`email`);--> statement-breakpoint
CREATE INDEX `beneficiaries_owner_idx` ON `beneficiaries` (`owner_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `vault_check` text;