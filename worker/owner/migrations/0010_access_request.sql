CREATE TABLE `access_requests` (
	`id` text PRIMARY KEY NOT NULL,
	`policy_id` text NOT NULL,
	`requester_kind` text NOT NULL,
	`requester_id` text NOT NULL,
	`requested_at` integer NOT NULL,
	`decide_by` integer NOT NULL,
	`status` text NOT NULL,
	`decided_at` integer,
	`firing_id` text NOT NULL,
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `access_requests_requester` ON `access_requests` (`requester_id`,`policy_id`);--> statement-breakpoint
ALTER TABLE `policies` ADD `access_request_days` integer;--> statement-breakpoint
ALTER TABLE `policies` ADD `access_request_by` text DEFAULT '["beneficiaries"]' NOT NULL;