ALTER TABLE `approvers` ADD `invitation_held_at` integer;--> statement-breakpoint
ALTER TABLE `beneficiaries` ADD `invitation_held_at` integer;