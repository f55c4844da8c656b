// `npm start`'s local database (scripts/lib/local-d1.mjs): the squashed schema is the migrations'
// result, a new database gets it in one step, and only a database that lacks a migration goes
// through wrangler.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DatabaseSync as Database } from 'node:sqlite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  appliedMigrations,
  applyMigrations,
  createFromSchema,
  loadSqlite,
  localD1File,
  localD1Plan,
  localDatabaseId,
  migrationFiles,
  prepareLocalD1,
  SQUASHED_SCHEMA,
  squashedSchema,
} from '../../scripts/lib/local-d1.mjs'

const root = process.cwd()
const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'legacy-vault-local-d1-'))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

let DatabaseSync: typeof Database
beforeAll(async () => {
  DatabaseSync = (await loadSqlite()).DatabaseSync
})

/** Everything a schema is made of, and every row, in a comparable form. */
function describeDatabase(db: Database) {
  const rows = (sql: string, ...params: string[]) => db.prepare(sql).all(...params).map((row) => ({ ...row }))
  const master = rows("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
  const tables = master.filter((o) => o.type === 'table').map((o) => String(o.name))
  return {
    master,
    tables: Object.fromEntries(
      tables.map((table) => [
        table,
        {
          columns: rows('SELECT * FROM pragma_table_xinfo(?)', table),
          indexes: rows('SELECT * FROM pragma_index_list(?) ORDER BY name', table),
          foreignKeys: rows('SELECT * FROM pragma_foreign_key_list(?)', table),
          // applied_at is the moment a row was written.
          rows: rows(`SELECT * FROM "${table}"`).map(({ applied_at: _when, ...row }) => row),
        },
      ]),
    ),
    indexColumns: Object.fromEntries(master.filter((o) => o.type === 'index').map((o) => [o.name, rows('SELECT * FROM pragma_index_xinfo(?)', String(o.name))])),
  }
}

describe('the squashed schema', () => {
  it('is what the migrations make today (run `npm run db:squash` after adding one)', async () => {
    expect(readFileSync(join(root, SQUASHED_SCHEMA), 'utf8')).toBe(await squashedSchema(root))
  })

  it('gives a new database the same tables, columns, indexes, keys and rows as applying every migration one by one', () => {
    const oneByOne = new DatabaseSync(':memory:')
    applyMigrations(oneByOne, root)
    const file = join(tempDir(), 'squashed.sqlite')
    createFromSchema(DatabaseSync, file, readFileSync(join(root, SQUASHED_SCHEMA), 'utf8'))
    const squashed = new DatabaseSync(file, { readOnly: true })
    const expected = describeDatabase(oneByOne)
    expect(Object.keys(expected.tables).length).toBeGreaterThan(20)
    expect(describeDatabase(squashed)).toEqual(expected)
    expect(appliedMigrations(DatabaseSync, file)).toEqual(migrationFiles(root))
  })
})

describe('a start’s local database', () => {
  const files = ['0000_a.sql', '0001_b.sql']

  it('is created when there is none, left alone when it lists every migration, migrated when it lacks one', () => {
    expect(localD1Plan({ exists: false, applied: [], files })).toBe('create')
    expect(localD1Plan({ exists: true, applied: files, files })).toBe('none')
    expect(localD1Plan({ exists: true, applied: [...files, '0002_removed_since.sql'], files })).toBe('none')
    expect(localD1Plan({ exists: true, applied: ['0000_a.sql'], files })).toBe('migrate')
    // As many rows as files, but not the newest file's.
    expect(localD1Plan({ exists: true, applied: ['0000_a.sql', '0001_renamed_since.sql'], files })).toBe('migrate')
    expect(localD1Plan({ exists: true, applied: [], files })).toBe('migrate')
  })

  it('lives where wrangler keeps the local D1 database of wrangler.toml’s id', () => {
    expect(localDatabaseId(root)).toBe('00000000-0000-0000-0000-000000000000')
    // The file wrangler 4.164 made for that id under --persist-to /state.
    expect(localD1File({ stateDir: '/state', databaseId: '00000000-0000-0000-0000-000000000000' })).toBe(
      '/state/v3/d1/miniflare-D1DatabaseObject/9ba2b04bf514d9facfd57ed57d849e77241a7adc99d1c1545d06688b43d84248.sqlite',
    )
  })

  it('is created from the squashed schema without wrangler, then left alone, and migrated by wrangler once it lacks a migration', async () => {
    const stateDir = tempDir()
    let migrations = 0
    const migrate = async () => void migrations++
    expect(await prepareLocalD1({ root, stateDir, migrate })).toBe('created')
    const file = localD1File({ stateDir, databaseId: localDatabaseId(root) })
    expect(appliedMigrations(DatabaseSync, file)).toEqual(migrationFiles(root))
    expect(await prepareLocalD1({ root, stateDir, migrate })).toBe('up to date')
    expect(migrations).toBe(0)

    const db = new DatabaseSync(file)
    db.exec('DELETE FROM d1_migrations WHERE id = (SELECT max(id) FROM d1_migrations)')
    db.close()
    expect(await prepareLocalD1({ root, stateDir, migrate })).toBe('migrated')
    expect(migrations).toBe(1)
  })

  it('when the squashed schema is older than the newest migration, is created from it and then migrated by wrangler', async () => {
    const checkout = tempDir()
    cpSync(join(root, 'migrations'), join(checkout, 'migrations'), { recursive: true })
    cpSync(join(root, 'wrangler.toml'), join(checkout, 'wrangler.toml'))
    writeFileSync(join(checkout, 'migrations', '9999_newer.sql'), 'CREATE TABLE newer (id integer);\n')
    let migrations = 0
    expect(await prepareLocalD1({ root: checkout, stateDir: join(checkout, 'state'), migrate: async () => void migrations++ })).toBe('created, then migrated')
    expect(migrations).toBe(1)
  })

  it('is written whole or not at all: a schema that fails leaves no database behind', () => {
    const dir = tempDir()
    const file = join(dir, 'db.sqlite')
    expect(() => createFromSchema(DatabaseSync, file, 'CREATE TABLE a (id integer);\nTHIS IS NOT SQL;')).toThrow()
    expect(existsSync(file)).toBe(false)
    expect(readdirSync(dir)).toEqual([])
  })

  it('is the database wrangler itself uses: `wrangler d1 execute --local` reads the created file', { timeout: 180_000 }, async () => {
    const stateDir = tempDir()
    await prepareLocalD1({ root, stateDir, migrate: async () => {} })
    const result = spawnSync('wrangler', ['d1', 'execute', 'DB', '--local', '--persist-to', stateDir, '--json', '--command', 'SELECT count(*) AS n FROM d1_migrations'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true' },
    })
    expect(result.status, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)[0].results).toEqual([{ n: migrationFiles(root).length }])
  })
})
