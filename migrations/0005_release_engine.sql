CREATE TABLE `death_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`approver_id` text NOT NULL,
	`certificate_number` text NOT NULL,
	`date_of_death` text NOT NULL,
	`issuing_authority` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`approver_id`) REFERENCES `approvers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `death_reports_owner_approver_unique` ON `death_reports` (`owner_id`,`approver_id`);--> statement-breakpoint
CREATE TABLE `engine_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `firings` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`trigger_id` text,
	`kind` text NOT NULL,
	`trigger_type` text NOT NULL,
	`reason` text,
	`actor` text NOT NULL,
	`operation_token` text NOT NULL,
	`fired_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`trigger_id`) REFERENCES `triggers`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `firings_owner_idx` ON `firings` (`owner_id`,`fired_at`);--> statement-breakpoint
CREATE TABLE `owner_clocks` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`next_alarm_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `owner_clocks_alarm_idx` ON `owner_clocks` (`next_alarm_at`);--> statement-breakpoint
CREATE TABLE `policy_items` (
	`policy_id` text NOT NULL,
	`item_id` text NOT NULL,
	PRIMARY KEY(`policy_id`, `item_id`),
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `vault_items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `policy_items_item_idx` ON `policy_items` (`item_id`);--> statement-breakpoint
CREATE TABLE `release_signoffs` (
	`release_id` text NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`decision` text,
	`notes` text,
	`decided_at` integer,
	PRIMARY KEY(`release_id`, `email`),
	FOREIGN KEY (`release_id`) REFERENCES `releases`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `release_targets` (
	`release_id` text NOT NULL,
	`item_id` text NOT NULL,
	`beneficiary_id` text NOT NULL,
	PRIMARY KEY(`release_id`, `item_id`, `beneficiary_id`),
	FOREIGN KEY (`release_id`) REFERENCES `releases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `vault_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`beneficiary_id`) REFERENCES `beneficiaries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `released_assets` (
	`id` text PRIMARY KEY NOT NULL,
	`release_id` text NOT NULL,
	`owner_id` text NOT NULL,
	`beneficiary_id` text NOT NULL,
	`item_id` text NOT NULL,
	`status` text NOT NULL,
	`download_count` integer DEFAULT 0 NOT NULL,
	`max_downloads` integer NOT NULL,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	`notified_at` integer,
	FOREIGN KEY (`release_id`) REFERENCES `releases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`beneficiary_id`) REFERENCES `beneficiaries`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`item_id`) REFERENCES `vault_items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `released_assets_item_beneficiary_unique` ON `released_assets` (`item_id`,`beneficiary_id`);--> statement-breakpoint
CREATE INDEX `released_assets_beneficiary_idx` ON `released_assets` (`beneficiary_id`);--> statement-breakpoint
CREATE TABLE `releases` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`firing_id` text NOT NULL,
	`source_key` text NOT NULL,
	`source_name` text NOT NULL,
	`policy_id` text,
	`status` text NOT NULL,
	`release_at` integer NOT NULL,
	`required_approvals` integer NOT NULL,
	`identity_required` integer NOT NULL,
	`operation_token` text,
	`created_at` integer NOT NULL,
	`released_at` integer,
	`cancelled_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`firing_id`) REFERENCES `firings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `releases_firing_source_unique` ON `releases` (`firing_id`,`source_key`);--> statement-breakpoint
CREATE INDEX `releases_owner_idx` ON `releases` (`owner_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `releases_due_idx` ON `releases` (`status`,`release_at`);--> statement-breakpoint
CREATE TABLE `triggers` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`config` text NOT NULL,
	`fire_at` integer,
	`fired_at` integer,
	`generation` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `triggers_owner_idx` ON `triggers` (`owner_id`);--> statement-breakpoint
CREATE INDEX `triggers_due_idx` ON `triggers` (`status`,`fire_at`);--> statement-breakpoint
CREATE TABLE `unlock_failures` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`kind` text NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `unlock_failures_owner_idx` ON `unlock_failures` (`owner_id`,`at`);--> statement-breakpoint
ALTER TABLE `item_grants` ADD `direct` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `payment_grace_until` integer;