CREATE TABLE `identity_documents` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`beneficiary_id` text NOT NULL,
	`document_type` text NOT NULL,
	`document_number` text NOT NULL,
	`issuing_authority` text NOT NULL,
	`expiration_date` text NOT NULL,
	`front_key` text NOT NULL,
	`front_content_type` text NOT NULL,
	`back_key` text,
	`back_content_type` text,
	`status` text NOT NULL,
	`required_approvals` integer NOT NULL,
	`rejection_reason` text,
	`submitted_at` integer NOT NULL,
	`decided_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`beneficiary_id`) REFERENCES `beneficiaries`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `identity_documents_beneficiary_idx` ON `identity_documents` (`beneficiary_id`);--> statement-breakpoint
CREATE TABLE `identity_reviews` (
	`document_id` text NOT NULL,
	`approver_id` text NOT NULL,
	`status` text NOT NULL,
	`notes` text NOT NULL,
	`signature` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`document_id`, `approver_id`),
	FOREIGN KEY (`document_id`) REFERENCES `identity_documents`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`approver_id`) REFERENCES `approvers`(`id`) ON UPDATE no action ON DELETE cascade
);
