// How long `npm start` takes to answer: on a fresh clone (no build, no .wrangler state: a `git
// clone` of this checkout's last commit beside it, with this checkout's node_modules linked in, as
// after `npm install`), then three times more on the same clone with nothing changed. Timed from the
// spawn of `npm start` to the first 200 of /api/health (and of the SPA's /), against issue 34's
// goals: 10 s fresh, 5 s repeated.
import { spawn, spawnSync } from 'node:child_process'
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { root } from '../lib/local-env.mjs'
import { median } from './stats.mjs'

const FRESH_GOAL_S = 10
const REPEAT_GOAL_S = 5
const REPEATS = 3

/**
 * CPU seconds used so far by a process and everything it started (Linux /proc; null elsewhere):
 * each live descendant's own time plus that of the children it has reaped (a finished vite build).
 * Unlike the wall time, it hardly depends on what else the machine runs.
 */
function treeCpuSeconds(pid) {
  try {
    const procs = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .flatMap((name) => {
        try {
          const fields = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')
          // After "pid (comm) ": state, ppid, …, utime (12th), stime, cutime, cstime.
          return [{ pid: Number(name), ppid: Number(fields[1]), ticks: [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) }]
        } catch {
          return []
        }
      })
    const tree = new Set([pid])
    for (let grew = true; grew; ) {
      grew = false
      for (const p of procs) {
        if (!tree.has(p.pid) && tree.has(p.ppid)) {
          tree.add(p.pid)
          grew = true
        }
      }
    }
    return procs.filter((p) => tree.has(p.pid)).reduce((sum, p) => sum + p.ticks, 0) / 100
  } catch {
    return null
  }
}

async function firstOk(url, child, deadline) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`)
    try {
      if ((await fetch(url)).ok) return performance.now()
    } catch {
      // not up yet
    }
    if (performance.now() > deadline) throw new Error(`no answer from ${url} within 5 minutes`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** One `npm start` in `cwd`, until it answers; then stopped. */
async function timedStart({ cwd, port, logPath }) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(STRIPE_|LEGACY_VAULT_|PERSIST_TO$|npm_)/.test(name)))
  const log = createWriteStream(logPath, { flags: 'a' })
  const began = performance.now()
  const child = spawn('npm', ['start'], {
    cwd,
    env: { ...env, PORT: String(port), INSPECTOR_PORT: String(port + 1000) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  child.stdout.pipe(log)
  child.stderr.pipe(log)
  try {
    const deadline = began + 300_000
    const health = await firstOk(`http://localhost:${port}/api/health`, child, deadline)
    const cpu = treeCpuSeconds(child.pid)
    const page = await firstOk(`http://localhost:${port}/`, child, deadline)
    return { health: (health - began) / 1000, page: (page - began) / 1000, cpu }
  } catch (error) {
    throw new Error(`${error.message}; its output:\n${readFileSync(logPath, 'utf8').slice(-3000)}`)
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve))
    // npm and start.mjs share this group; start.mjs stops wrangler's own group (workerd included).
    if (child.exitCode === null) process.kill(-child.pid, 'SIGTERM')
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))])
  }
}

const cpuText = (cpu) => (cpu === null || Number.isNaN(cpu) ? 'CPU not measured' : `${cpu.toFixed(1)} s of CPU until then`)

export async function measureStart({ log }) {
  const port = Number(process.env.BENCH_PORT ?? 8798) + 2
  const dir = mkdtempSync(join(tmpdir(), 'legacy-vault-bench-start-'))
  const cwd = join(dir, 'checkout')
  const logPath = join(dir, 'start.log')
  try {
    const clone = spawnSync('git', ['clone', '--quiet', root, cwd], { encoding: 'utf8' })
    if (clone.status !== 0) throw new Error(`git clone failed: ${clone.stderr}`)
    symlinkSync(realpathSync(join(root, 'node_modules')), join(cwd, 'node_modules'))
    const fresh = await timedStart({ cwd, port, logPath })
    log(`start: fresh clone answered in ${fresh.health.toFixed(1)} s (the SPA in ${fresh.page.toFixed(1)} s; ${cpuText(fresh.cpu)})`)
    const repeats = []
    for (let i = 0; i < REPEATS; i++) {
      repeats.push(await timedStart({ cwd, port, logPath }))
      log(`start: repeat ${i + 1} answered in ${repeats.at(-1).health.toFixed(1)} s (${cpuText(repeats.at(-1).cpu)})`)
    }
    const repeat = median(repeats.map((r) => r.health))
    return {
      rows: [
        {
          id: 'start.fresh',
          measurement: '`npm start` on a fresh clone after `npm install` (builds, creates the database): first answer of /api/health',
          value: fresh.health,
          unit: 's',
          detail: `the SPA's / at ${fresh.page.toFixed(1)} s; ${cpuText(fresh.cpu)}`,
          reference: { label: 'goal', value: FRESH_GOAL_S },
        },
        {
          id: 'start.repeat',
          measurement: '`npm start` again, nothing changed (reuses the build and the database): first answer of /api/health (median)',
          value: repeat,
          unit: 's',
          detail: `${REPEATS} starts: ${repeats.map((r) => r.health.toFixed(1)).join(', ')} s; ${cpuText(median(repeats.map((r) => r.cpu)))}`,
          reference: { label: 'goal', value: REPEAT_GOAL_S },
        },
      ],
      raw: { fresh, repeats },
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
