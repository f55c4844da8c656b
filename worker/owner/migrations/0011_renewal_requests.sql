CREATE TABLE `renewal_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`beneficiary_id` text NOT NULL,
	`asset_ids` text NOT NULL,
	`asked` text NOT NULL,
	`refused_by` text NOT NULL,
	`requested_at` integer NOT NULL,
	`status` text NOT NULL,
	`decided_at` integer,
	`decided_by` text,
	FOREIGN KEY (`beneficiary_id`) REFERENCES `beneficiaries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `renewal_requests_beneficiary_idx` ON `renewal_requests` (`beneficiary_id`,`status`);