CREATE TABLE `third_party_mail` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`address` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `third_party_mail_address_idx` ON `third_party_mail` (`address`,`at`);--> statement-breakpoint
CREATE INDEX `third_party_mail_at_idx` ON `third_party_mail` (`at`);