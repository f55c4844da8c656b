// A scratch copy of the working tree for the mutation runners (scripts/mutate.mjs,
// scripts/fresh-mutate.mjs): each mutation is applied there, never to the tree itself.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/**
 * The tree's tracked and untracked-but-not-ignored files under `root`, plus `extra` (ignored files
 * the tests need, such as .dev.vars) where they exist, with node_modules linked, in a fresh
 * directory named from `prefix`.
 */
export function scratchCopy(root, prefix, extra = []) {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)
  for (const f of [...files, ...extra]) {
    if (!existsSync(join(root, f))) continue
    mkdirSync(dirname(join(dir, f)), { recursive: true })
    cpSync(join(root, f), join(dir, f))
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  return dir
}
