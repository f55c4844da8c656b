-- 0.2: each owner's vault moves into that owner's Durable Object (worker/owner/). D1 keeps what
-- spans owners, plus a directory, and drops what no one read (a session's user agent, an index).
-- 0.1 was never deployed (wrangler.toml's database id is a placeholder): there is nothing to carry
-- over. Edited by hand before release: WITHOUT ROWID on the two new tables, children dropped first.
CREATE TABLE `heir_index` (
	`address_key` integer NOT NULL,
	`owner_id` text NOT NULL,
	PRIMARY KEY(`address_key`, `owner_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `owner_directory` (
	`owner_id` text PRIMARY KEY NOT NULL,
	`next_due_at` integer,
	`items` integer DEFAULT 0 NOT NULL,
	`storage_bytes` integer DEFAULT 0 NOT NULL,
	`beneficiaries` integer DEFAULT 0 NOT NULL,
	`revision` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `owner_directory_due_idx` ON `owner_directory` (`next_due_at`) WHERE next_due_at is not null;--> statement-breakpoint
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
DROP INDEX `subscriptions_email_idx`;--> statement-breakpoint
ALTER TABLE `sessions` DROP COLUMN `user_agent`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `storage_used`;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `vault_item_count`;