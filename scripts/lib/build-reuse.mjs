// Whether `npm start` must run `vite build` or can serve the build it made before: a digest of
// everything the build reads (the SPA, the contract it imports, the build's configuration and the
// lockfile) is kept beside the build, with a digest of the index.html it produced. The build is
// reused only when both still match, so a changed source, another `vite build` into the same
// folder (`npm run build`, made without the local mailbox) or a half-finished build is rebuilt.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative } from 'node:path'

/** What `vite build` reads, relative to the checkout: folders are read whole. */
export const BUILD_INPUTS = [
  'web',
  'contract',
  'vite.config.ts',
  'scripts/estate-page.ts',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.web.json',
]

function filesOf(root, input) {
  const full = join(root, input)
  if (!existsSync(full)) return []
  try {
    return readdirSync(full, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)))
  } catch (error) {
    if (error.code === 'ENOTDIR') return [input]
    throw error
  }
}

/**
 * The digest of the build's inputs: each file's path and content, in path order, after `recipe`
 * (how the build is made: its command and environment), so changing any of them changes it.
 */
export function buildInputsDigest(root, recipe, inputs = BUILD_INPUTS) {
  const hash = createHash('sha256').update(`${recipe}\0`)
  const files = inputs.flatMap((input) => filesOf(root, input)).sort()
  for (const file of files) hash.update(`${file}\0`).update(readFileSync(join(root, file))).update('\0')
  return hash.digest('hex')
}

/** The record kept beside a build folder (dist/client → dist/.client-build.json): never served. */
export const stampPath = (outDir) => join(dirname(outDir), `.${basename(outDir)}-build.json`)

const digestOf = (file) => (existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : null)

/**
 * Decides from what is on disk: `null` when the build can be served as it is, otherwise why it
 * must be made (for the one line `npm start` prints).
 */
export function buildDecision({ inputs, stamp, index }) {
  if (index === null) return 'no build yet'
  if (stamp === null) return 'no record of what the build was made from'
  if (stamp.index !== index) return 'the build was replaced since'
  if (stamp.inputs !== inputs) return 'the sources changed'
  return null
}

function readStamp(outDir) {
  try {
    const stamp = JSON.parse(readFileSync(stampPath(outDir), 'utf8'))
    return typeof stamp?.inputs === 'string' && typeof stamp?.index === 'string' ? stamp : null
  } catch {
    return null
  }
}

/** Reads the disk and decides; `record()` is to be called once a build has finished. */
export function checkBuild({ root, outDir, recipe }) {
  const inputs = buildInputsDigest(root, recipe)
  const reason = buildDecision({ inputs, stamp: readStamp(outDir), index: digestOf(join(outDir, 'index.html')) })
  return {
    reason,
    /** Before building: a build that stops halfway must not be taken for a finished one. */
    forget: () => rmSync(stampPath(outDir), { force: true }),
    record: () => writeFileSync(stampPath(outDir), `${JSON.stringify({ inputs, index: digestOf(join(outDir, 'index.html')) })}\n`),
  }
}
