CREATE TABLE `blob_deletions` (
	`r2_key` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `item_grants` (
	`item_id` text NOT NULL,
	`beneficiary_id` text NOT NULL,
	`wrapped_key` text NOT NULL,
	`key_version` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`item_id`, `beneficiary_id`),
	FOREIGN KEY (`item_id`) REFERENCES `vault_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`beneficiary_id`) REFERENCES `beneficiaries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `item_grants_beneficiary_idx` ON `item_grants` (`beneficiary_id`);--> statement-breakpoint
CREATE TABLE `upload_parts` (
	`item_id` text NOT NULL,
	`part_number` integer NOT NULL,
	`etag` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`item_id`, `part_number`),
	FOREIGN KEY (`item_id`) REFERENCES `vault_items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `vault_items` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`plain_size` integer NOT NULL,
	`cipher_size` integer NOT NULL,
	`chunk_bytes` integer NOT NULL,
	`part_count` integer NOT NULL,
	`r2_key` text NOT NULL,
	`upload_id` text,
	`encrypted_metadata` text,
	`wrapped_key` text,
	`release_protocol` text DEFAULT 'VERIFIED_DEATH' NOT NULL,
	`requires_approver` integer DEFAULT false NOT NULL,
	`approver_contact` text,
	`scheduled_at` integer,
	`operation_token` text,
	`created_at` integer NOT NULL,
	`completed_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `vault_items_owner_idx` ON `vault_items` (`owner_id`,`status`);--> statement-breakpoint
CREATE INDEX `vault_items_status_created_idx` ON `vault_items` (`status`,`created_at`);