// The release before this one, served beside it for the before/after rows: its files at a git
// ref (BENCH_BASELINE, 3e221e7 = 0.1 by default; `none` to skip) unpacked into a temporary folder
// with this checkout's node_modules, started the way `npm start` starts it, on its own port and
// state. The same measurement code then runs against both.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { root } from '../lib/local-env.mjs'
import { startServer } from './server.mjs'

export const BASELINE = process.env.BENCH_BASELINE ?? '3e221e7'

function unpack(ref, dir) {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', `git archive --format=tar ${JSON.stringify(ref)} | tar -x -C ${JSON.stringify(dir)}`], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (d) => (err += d))
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`git archive ${ref} failed: ${err}`))))
  })
}

export async function startBaseline({ port, logPath }) {
  const dir = mkdtempSync(join(tmpdir(), 'legacy-vault-baseline-'))
  await unpack(BASELINE, dir)
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
  const server = await startServer({ port, logPath, cwd: dir })
  return {
    ...server,
    ref: BASELINE,
    async stop() {
      await server.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
