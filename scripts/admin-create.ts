// `npm run admin:create -- <email> <password> [--remote]`
// Creates an admin account, or promotes an existing one (its password is then reset to the one
// given). Runs against the local D1 database by default; `--remote` targets the deployed one.
import { spawnSync } from 'node:child_process'
import { emailField, registerBodySchema } from '../contract/auth'
import { hashPassword } from '../worker/services/passwords'

function fail(message: string): never {
  console.error(message)
  process.exit(1)
}

const args = process.argv.slice(2)
const remote = args.includes('--remote')
const [rawEmail, password] = args.filter((a) => !a.startsWith('--'))
if (!rawEmail || !password) fail('Usage: npm run admin:create -- <email> <password> [--remote]')

const email = emailField.safeParse(rawEmail)
if (!email.success) fail(`Invalid e-mail: ${email.error.issues[0]?.message}`)
const passwordCheck = registerBodySchema.shape.password.safeParse(password)
if (!passwordCheck.success) fail(passwordCheck.error.issues[0]?.message ?? 'Invalid password')

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`
const now = Date.now()
const hash = await hashPassword(password)
const sql = `INSERT INTO users (id, email, password_hash, display_name, role, plan_tier, subscription_status, billing_provider, email_verified_at, created_at, updated_at)
VALUES (${quote(crypto.randomUUID())}, ${quote(email.data)}, ${quote(hash)}, 'Administrator', 'admin', 'enterprise', 'active', 'none', ${now}, ${now}, ${now})
ON CONFLICT(email) DO UPDATE SET role = 'admin', password_hash = excluded.password_hash, paused_at = NULL, email_verified_at = coalesce(users.email_verified_at, ${now}), updated_at = ${now};`

const persist = process.env.PERSIST_TO ? ['--persist-to', process.env.PERSIST_TO] : []
const target = remote ? ['--remote'] : ['--local', ...persist]
const migrate = spawnSync('wrangler', ['d1', 'migrations', 'apply', 'DB', ...target], {
  stdio: 'inherit',
  env: { ...process.env, CI: 'true' },
})
if (migrate.status !== 0) fail('Applying migrations failed.')
const result = spawnSync('wrangler', ['d1', 'execute', 'DB', ...target, '--command', sql], { stdio: ['ignore', 'ignore', 'inherit'] })
if (result.status !== 0) fail('Writing the admin account failed.')
console.log(`Admin account ready: ${email.data} (${remote ? 'remote' : 'local'} database).`)
