CREATE TABLE `vault_key_staging` (
	`kind` text NOT NULL,
	`ref_id` text NOT NULL,
	`wrapped_key` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`kind`, `ref_id`)
);
--> statement-breakpoint
ALTER TABLE `beneficiaries` ADD `key_backup` text;--> statement-breakpoint
ALTER TABLE `beneficiaries` ADD `key_backup_salt` text;--> statement-breakpoint
ALTER TABLE `beneficiaries` ADD `key_backup_version` integer;--> statement-breakpoint
ALTER TABLE `beneficiaries` ADD `key_backup_at` integer;