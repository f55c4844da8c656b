CREATE TABLE `firing_recipients` (
	`firing_id` text NOT NULL,
	`beneficiary_id` text NOT NULL,
	`told_at` integer NOT NULL,
	PRIMARY KEY(`firing_id`, `beneficiary_id`),
	FOREIGN KEY (`firing_id`) REFERENCES `firings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`beneficiary_id`) REFERENCES `beneficiaries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `approvers` ADD `death_link_nonce` text;--> statement-breakpoint
ALTER TABLE `death_reports` ADD `link_nonce` text;--> statement-breakpoint
ALTER TABLE `firings` ADD `prior_status` text;--> statement-breakpoint
ALTER TABLE `released_assets` ADD `withdrawn_at` integer;--> statement-breakpoint
UPDATE `approvers` SET `death_link_nonce` = 'legacy' WHERE `death_link_sent_at` IS NOT NULL;--> statement-breakpoint
INSERT OR IGNORE INTO `firing_recipients` (`firing_id`, `beneficiary_id`, `told_at`)
	SELECT r.`firing_id`, a.`beneficiary_id`, min(a.`notified_at`) FROM `released_assets` a JOIN `releases` r ON r.`id` = a.`release_id`
	WHERE a.`notified_at` IS NOT NULL GROUP BY r.`firing_id`, a.`beneficiary_id`;
