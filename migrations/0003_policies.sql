CREATE TABLE `policies` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`status` text NOT NULL,
	`release_on` text NOT NULL,
	`delay_hours` integer NOT NULL,
	`requires_approver` integer NOT NULL,
	`approver_contact` text,
	`requires_identity_verification` integer NOT NULL,
	`identity_verification_approvers` text NOT NULL,
	`required_document_types` text NOT NULL,
	`minimum_approvals` integer NOT NULL,
	`encrypted_selectors` text NOT NULL,
	`wrapped_key` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `policies_owner_idx` ON `policies` (`owner_id`);--> statement-breakpoint
CREATE TABLE `policy_beneficiaries` (
	`policy_id` text NOT NULL,
	`beneficiary_id` text NOT NULL,
	PRIMARY KEY(`policy_id`, `beneficiary_id`),
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`beneficiary_id`) REFERENCES `beneficiaries`(`id`) ON UPDATE no action ON DELETE cascade
);
