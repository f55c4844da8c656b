// A quiet `npm install` (.npmrc, package.json's allowScripts and devEngines): what it leaves unsaid
// is only what is expected.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = process.cwd()
const semver = createRequire(import.meta.url)('semver') as { satisfies(version: string, range: string, options?: object): boolean }
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string }
  allowScripts: Record<string, boolean>
  devDependencies: Record<string, string>
}
type Locked = { version?: string; engines?: { node?: string }; hasInstallScript?: boolean; optional?: boolean }
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, Locked> }
const packageName = (path: string) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
// What npm checks on install: optional packages of another platform are never installed.
const installed = Object.entries(lock.packages).filter(([path, p]) => path !== '' && !p.optional)
const npmrc = readFileSync(join(root, '.npmrc'), 'utf8')
const setting = (name: string) => npmrc.match(new RegExp(`^${name}=(.*)$`, 'm'))?.[1]

describe('a quiet install', () => {
  it('runs everything on a Node that satisfies every installed package’s engines (the engine warnings it hides concern only the machine’s Node)', () => {
    const bundled = lock.packages['node_modules/node']?.version
    expect(bundled).toMatch(/^22\./)
    expect(pkg.devDependencies.node).toBeDefined()
    expect(semver.satisfies(bundled!, pkg.engines.node)).toBe(true)
    const unmet = installed
      .filter(([, p]) => p.engines?.node && !semver.satisfies(bundled!, p.engines.node, { includePrerelease: true }))
      .map(([path, p]) => `${packageName(path)}@${p.version} needs node ${p.engines!.node}`)
    expect(unmet).toEqual([])
  })

  it('declares every install script in the lockfile, allowed or denied, so none is left to a notice', () => {
    const withScripts = installed.filter(([, p]) => p.hasInstallScript).map(([path]) => packageName(path))
    expect(withScripts.length).toBeGreaterThan(0)
    expect(withScripts.filter((name) => !(name in pkg.allowScripts))).toEqual([])
    // The Node 22 everything runs on is installed by the `node` package's script.
    expect(pkg.allowScripts.node).toBe(true)
  })

  it('shows errors only while an undeclared install script is an error', () => {
    expect(setting('loglevel')).toBe('error')
    expect(setting('strict-allow-scripts')).toBe('true')
  })
})
