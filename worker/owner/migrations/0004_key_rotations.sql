CREATE TABLE `key_rotations` (
	`id` text PRIMARY KEY NOT NULL,
	`beneficiary_id` text NOT NULL,
	`public_key` text NOT NULL,
	`public_key_fingerprint` text NOT NULL,
	`key_signature` text NOT NULL,
	`key_version` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`beneficiary_id`) REFERENCES `beneficiaries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `rotation_grants` (
	`rotation_id` text NOT NULL,
	`item_id` text NOT NULL,
	`wrapped_key` text NOT NULL,
	PRIMARY KEY(`rotation_id`, `item_id`),
	FOREIGN KEY (`rotation_id`) REFERENCES `key_rotations`(`id`) ON UPDATE no action ON DELETE cascade
);
