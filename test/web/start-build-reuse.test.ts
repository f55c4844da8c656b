// `npm start` reuses the SPA build only while nothing it was made from has changed
// (scripts/lib/build-reuse.mjs).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BUILD_INPUTS, buildDecision, buildInputsDigest, checkBuild, stampPath } from '../../scripts/lib/build-reuse.mjs'

const root = process.cwd()
const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A checkout with a few sources and a build folder beside them. */
function checkout() {
  const dir = mkdtempSync(join(tmpdir(), 'legacy-vault-build-reuse-'))
  dirs.push(dir)
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  write('web/main.tsx', 'render()')
  write('web/routes/index.tsx', 'route()')
  write('contract/words.ts', 'export const hello = "Hello"')
  write('vite.config.ts', 'export default {}')
  write('package-lock.json', '{}')
  write('worker/index.ts', 'serve()')
  return { dir, write, outDir: join(dir, 'dist/client') }
}

const fakeBuild = (outDir: string, html = '<script src="/assets/index-abc.js"></script>') => {
  mkdirSync(outDir, { recursive: true })
  writeFileSync(join(outDir, 'index.html'), html)
}

describe('reusing the SPA build', () => {
  it('builds when there is no build, no record, a replaced build or changed sources; reuses it only when all match', () => {
    const stamp = { inputs: 'sources-1', index: 'page-1' }
    expect(buildDecision({ inputs: 'sources-1', stamp, index: null })).toBe('no build yet')
    expect(buildDecision({ inputs: 'sources-1', stamp: null, index: 'page-1' })).toBe('no record of what the build was made from')
    expect(buildDecision({ inputs: 'sources-1', stamp, index: 'page-2' })).toBe('the build was replaced since')
    expect(buildDecision({ inputs: 'sources-2', stamp, index: 'page-1' })).toBe('the sources changed')
    expect(buildDecision({ inputs: 'sources-1', stamp, index: 'page-1' })).toBeNull()
  })

  it('sees a changed, added, removed or renamed source and a changed recipe, and nothing outside the build’s inputs', () => {
    const { dir, write } = checkout()
    const digest = () => buildInputsDigest(dir, 'vite build')
    const first = digest()
    expect(digest()).toBe(first)
    write('worker/index.ts', 'serve(differently)')
    write('README.md', 'words')
    expect(digest()).toBe(first)

    write('contract/words.ts', 'export const hello = "Hi"')
    const changed = digest()
    expect(changed).not.toBe(first)
    write('web/routes/new.tsx', 'route()')
    const added = digest()
    expect(added).not.toBe(changed)
    rmSync(join(dir, 'web/routes/new.tsx'))
    expect(digest()).toBe(changed)
    rmSync(join(dir, 'web/routes/index.tsx'))
    write('web/routes/home.tsx', 'route()')
    expect(digest()).not.toBe(changed)
    write('package-lock.json', '{"lockfileVersion":3}')
    const locked = digest()
    expect(buildInputsDigest(dir, 'vite build --outDir elsewhere')).not.toBe(locked)
  })

  it('reuses a build it recorded until a source changes, the folder is rebuilt by something else, or a build stops halfway', () => {
    const { dir, write, outDir } = checkout()
    const check = () => checkBuild({ root: dir, outDir, recipe: 'vite build' })
    expect(check().reason).toBe('no build yet')

    let build = check()
    build.forget()
    fakeBuild(outDir)
    build.record()
    expect(existsSync(stampPath(outDir))).toBe(true)
    expect(readdirSync(outDir)).toEqual(['index.html'])
    expect(check().reason).toBeNull()

    write('web/main.tsx', 'render(again)')
    expect(check().reason).toBe('the sources changed')
    build = check()
    build.forget()
    fakeBuild(outDir, '<script src="/assets/index-def.js"></script>')
    build.record()
    expect(check().reason).toBeNull()

    fakeBuild(outDir, '<script src="/assets/index-production-only.js"></script>')
    expect(check().reason).toBe('the build was replaced since')

    // A build that stops halfway: the record was forgotten before it began.
    build = check()
    build.forget()
    expect(check().reason).toBe('no record of what the build was made from')
  })

  it('reads everything the SPA imports: no module of web/ or contract/ reaches outside the listed inputs', () => {
    const inputs = BUILD_INPUTS.map((input) => resolve(root, input))
    const inside = (path: string) => inputs.some((input) => path === input || path.startsWith(`${input}/`))
    const sources = ['web', 'contract'].flatMap((folder) =>
      readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.(ts|tsx|css|html)$/.test(file))
        .map((file) => join(root, folder, file)),
    )
    expect(sources.length).toBeGreaterThan(100)
    const outside = sources.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
        .map((match) => resolve(dirname(file), match[1]!))
        .filter((target) => !inside(target))
        .map((target) => `${relative(root, file)} → ${relative(root, target)}`),
    )
    expect(outside).toEqual([])
    // vite.config.ts's own imports.
    for (const match of readFileSync(join(root, 'vite.config.ts'), 'utf8').matchAll(/from '(\.\/[^']+)'/g)) expect(inside(resolve(root, match[1]!))).toBe(true)
  })
})
