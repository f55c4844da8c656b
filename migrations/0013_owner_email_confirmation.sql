ALTER TABLE `users` ADD `email_verified_at` integer;--> statement-breakpoint
-- Accounts made before confirmation existed keep sending as they did: their invitations already went out.
UPDATE `users` SET `email_verified_at` = `created_at`;
