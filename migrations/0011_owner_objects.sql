-- 0.2: each owner's vault moves into that owner's Durable Object (worker/owner/). D1 keeps what
-- spans owners and a directory, each kept small per owner (README, "Capacity"): the directory as
-- columns of users, sessions keyed by their owner, revenue by day instead of a row per invoice.
-- 0.1 was never deployed (wrangler.toml's database id is a placeholder): vault rows are not carried
-- over, and sessions start again (everyone signs in once more). Edited by hand after drizzle-kit:
-- WITHOUT ROWID tables, children dropped before parents, invoices summed into revenue_days, rows
-- of the rebuilt tables copied.
CREATE TABLE `heir_index` (
	`address_key` integer NOT NULL,
	`owner_id` blob NOT NULL,
	PRIMARY KEY(`address_key`, `owner_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `revenue_days` (
	`day` integer PRIMARY KEY NOT NULL,
	`amount_paid` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `revenue_days` (`day`, `amount_paid`)
	SELECT `created_at` / 86400000, sum(`amount_paid`) FROM `invoices` WHERE `status` = 'paid' GROUP BY 1;
--> statement-breakpoint
DROP TABLE `invoices`;--> statement-breakpoint
DROP TABLE `release_signoffs`;--> statement-breakpoint
DROP TABLE `release_targets`;--> statement-breakpoint
DROP TABLE `released_assets`;--> statement-breakpoint
DROP TABLE `releases`;--> statement-breakpoint
DROP TABLE `firings`;--> statement-breakpoint
DROP TABLE `death_reports`;--> statement-breakpoint
DROP TABLE `identity_reviews`;--> statement-breakpoint
DROP TABLE `identity_documents`;--> statement-breakpoint
DROP TABLE `item_grants`;--> statement-breakpoint
DROP TABLE `policy_items`;--> statement-breakpoint
DROP TABLE `policy_beneficiaries`;--> statement-breakpoint
DROP TABLE `policies`;--> statement-breakpoint
DROP TABLE `upload_parts`;--> statement-breakpoint
DROP TABLE `vault_items`;--> statement-breakpoint
DROP TABLE `unlock_failures`;--> statement-breakpoint
DROP TABLE `triggers`;--> statement-breakpoint
DROP TABLE `owner_clocks`;--> statement-breakpoint
DROP TABLE `approvers`;--> statement-breakpoint
DROP TABLE `beneficiaries`;--> statement-breakpoint
DROP TABLE `sessions`;--> statement-breakpoint
CREATE TABLE `sessions` (
	`user_id` text NOT NULL,
	`id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `__new_subscriptions` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text,
	`user_id` text,
	`plan` text NOT NULL,
	`status` text NOT NULL,
	`promo_code_id` text,
	`trial_days` integer,
	`created_at` integer NOT NULL,
	`claimed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`promo_code_id`) REFERENCES `promo_codes`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
INSERT INTO `__new_subscriptions`("id", "email", "user_id", "plan", "status", "promo_code_id", "trial_days", "created_at", "claimed_at")
	SELECT "id", CASE WHEN "user_id" IS NULL THEN "email" END, "user_id", "plan", "status", "promo_code_id", "trial_days", "created_at", "claimed_at" FROM `subscriptions`;--> statement-breakpoint
DROP TABLE `subscriptions`;--> statement-breakpoint
ALTER TABLE `__new_subscriptions` RENAME TO `subscriptions`;--> statement-breakpoint
CREATE INDEX `subscriptions_user_idx` ON `subscriptions` (`user_id`);--> statement-breakpoint
CREATE TABLE `__new_stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`keep_until` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_stripe_events` (`id`, `keep_until`) SELECT `id`, `received_at` + 2592000000 FROM `stripe_events`;--> statement-breakpoint
DROP TABLE `stripe_events`;--> statement-breakpoint
ALTER TABLE `__new_stripe_events` RENAME TO `stripe_events`;--> statement-breakpoint
ALTER TABLE `users` ADD `next_due_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `vault_items` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `vault_bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `vault_beneficiaries` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `vault_revision` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `users_next_due_idx` ON `users` (`next_due_at`) WHERE next_due_at is not null;--> statement-breakpoint
CREATE INDEX `users_stripe_customer_idx` ON `users` (`stripe_customer_id`) WHERE stripe_customer_id is not null;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `vault_setup`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `vault_salt`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `vault_check`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `storage_used`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `vault_item_count`;
