CREATE TABLE `payment_issues` (
	`invoice_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`invoice_created_at` integer NOT NULL,
	`amount_due` integer DEFAULT 0 NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`grace_until` integer NOT NULL,
	`failed_at` integer NOT NULL,
	`failure_notice_at` integer,
	`reminder_at` integer,
	`grace_ended_at` integer,
	`paid_at` integer,
	`recovery_notice_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `payment_issues_open_idx` ON `payment_issues` (`grace_until`) WHERE paid_at is null;--> statement-breakpoint
CREATE INDEX `payment_issues_user_idx` ON `payment_issues` (`user_id`);