import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'vite'
import { afterAll, describe, expect, it } from 'vitest'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

async function bundleText(devTools: boolean): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'legacy-vault-build-'))
  dirs.push(outDir)
  const previous = process.env.LEGACY_VAULT_DEV_TOOLS
  if (devTools) process.env.LEGACY_VAULT_DEV_TOOLS = '1'
  else delete process.env.LEGACY_VAULT_DEV_TOOLS
  try {
    await build({ configFile: 'vite.config.ts', logLevel: 'silent', build: { outDir, emptyOutDir: true } })
  } finally {
    if (previous === undefined) delete process.env.LEGACY_VAULT_DEV_TOOLS
    else process.env.LEGACY_VAULT_DEV_TOOLS = previous
  }
  const assets = join(outDir, 'assets')
  return readdirSync(assets)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(assets, f), 'utf8'))
    .join('\n')
}

describe('the production build', () => {
  it('leaves the local mailbox page out; a local build has it', async () => {
    expect(await bundleText(true)).toContain('Local mailbox')
    expect(await bundleText(false)).not.toContain('Local mailbox')
  }, 120_000)
})
