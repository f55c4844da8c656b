ALTER TABLE `beneficiaries` ADD `statement_sequence` integer;--> statement-breakpoint
ALTER TABLE `beneficiaries` ADD `kit_has_vault_fingerprint` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `key_rotations` ADD `statement_sequence` integer;--> statement-breakpoint
ALTER TABLE `upload_parts` ADD `digest` text;--> statement-breakpoint
ALTER TABLE `vault_items` ADD `content_digest` text;--> statement-breakpoint
ALTER TABLE `vault_items` ADD `manifest` text;--> statement-breakpoint
ALTER TABLE `vault_items` ADD `manifest_signature` text;