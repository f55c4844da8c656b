// Types of local-d1.mjs for the tests that import it.
import type { DatabaseSync } from 'node:sqlite'

export const SQUASHED_SCHEMA: string
export const MIGRATIONS_DIR: string
export const MIGRATIONS_TABLE: string
export function loadSqlite(): Promise<typeof import('node:sqlite')>
export function migrationFiles(root: string): string[]
export function applyMigrations(db: DatabaseSync, root: string, names?: string[]): void
export function dumpDatabase(db: DatabaseSync, options?: { withoutRowsOf?: string[] }): string[]
export function squashedSchema(root: string): Promise<string>
export function localD1File(options: { stateDir: string; databaseId: string }): string
export function localDatabaseId(root: string, binding?: string): string
export function localD1Plan(options: { exists: boolean; applied: string[]; files: string[] }): 'create' | 'none' | 'migrate'
export function appliedMigrations(Database: typeof DatabaseSync, file: string): string[]
export function createFromSchema(Database: typeof DatabaseSync, file: string, schemaSql: string): void
export function prepareLocalD1(options: { root: string; stateDir: string; migrate: () => Promise<void> }): Promise<'created' | 'created, then migrated' | 'migrated' | 'up to date'>
