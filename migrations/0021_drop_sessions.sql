-- Sessions live in each owner's Durable Object (worker/owner/sessions.ts, owner migration
-- 0012_owner_sessions): nothing has read or written this table since. Everyone signs in again once.
DROP TABLE `sessions`;