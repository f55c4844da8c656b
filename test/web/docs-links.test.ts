import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The README is the newcomer's five minutes; everything else lives in docs/. A moved or renamed
// section must not leave a link pointing nowhere, and the README must stay short.

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const README_LIMIT_BYTES = 15_000

const docFiles = (): string[] => [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(ROOT, 'docs', f)),
]

/** The file's lines outside fenced code blocks. */
function proseLines(text: string): string[] {
  let fenced = false
  return text.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      return false
    }
    return !fenced
  })
}

/**
 * GitHub's heading anchor: the rendered text lowercased, every character but letters, marks,
 * digits, connectors ('_'), '-' and spaces dropped, each space a '-' (its `[^\p{Word}\- ]` rule).
 */
function slug(heading: string): string {
  const rendered = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

/** Every anchor a file's headings make, a repeated heading numbered as GitHub numbers it. */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const line of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!m) continue
    const base = slug(m[1]!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  return anchors
}

/** The relative links of a markdown file (inline code and fenced blocks are not links). */
function relativeLinks(text: string): string[] {
  const links: string[] = []
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '')
    for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1]!
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
      links.push(target)
    }
  }
  return links
}

/** What is wrong with each relative link of the given files, as "file: link (reason)". */
function brokenLinks(
  files: string[],
  read: (file: string) => string,
  exists: (file: string) => boolean = existsSync,
): string[] {
  const broken: string[] = []
  for (const file of files) {
    for (const link of relativeLinks(read(file))) {
      const [path = '', anchor] = link.split('#', 2)
      const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path))
      const where = `${relative(ROOT, file)}: ${link}`
      if (!exists(target)) {
        broken.push(`${where} (no such file)`)
        continue
      }
      if (anchor === undefined) continue
      if (!target.endsWith('.md')) {
        broken.push(`${where} (an anchor into a file that has no headings)`)
        continue
      }
      if (!anchorsOf(read(target)).has(decodeURIComponent(anchor).toLowerCase())) {
        broken.push(`${where} (no heading "#${anchor}" in ${relative(ROOT, target)})`)
      }
    }
  }
  return broken
}

describe('the README and docs/', () => {
  const read = (file: string) => readFileSync(file, 'utf8')

  it('the README stays under 15 KB', () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThan(README_LIMIT_BYTES)
  })

  it('every relative link points at a file that exists, and every #anchor at a heading in it', () => {
    const files = docFiles()
    expect(files.length).toBeGreaterThan(10)
    expect(brokenLinks(files, read)).toEqual([])
  })

  it('the README links to each topic in docs/', () => {
    const linked = new Set(relativeLinks(read(join(ROOT, 'README.md'))).map((l) => l.split('#')[0]))
    for (const file of docFiles().slice(1)) expect(linked).toContain(`docs/${relative(join(ROOT, 'docs'), file)}`)
  })
})

describe('the link check itself', () => {
  const files = { a: join(ROOT, 'docs', 'a.md') }

  it("makes GitHub's anchors", () => {
    expect(slug('A hostile server (0.3 · 3 of 7)')).toBe('a-hostile-server-03--3-of-7')
    expect(slug('Do the tests guard the rules? `npm run mutate`')).toBe('do-the-tests-guard-the-rules-npm-run-mutate')
    expect(slug('Deployment (Cloudflare)')).toBe('deployment-cloudflare')
    expect(slug('snake_case and-dash')).toBe('snake_case-and-dash')
    expect([...anchorsOf('# Notes\n\n## Notes\n\n```\n# not a heading\n```\n')]).toEqual(['notes', 'notes-1'])
  })

  it('finds a link to a missing file and to a missing heading, and ignores code and web addresses', () => {
    const texts: Record<string, string> = {
      [files.a]: [
        '# A',
        '[fine](../README.md) [fine too](#a) [gone](missing.md) [wrong](../README.md#no-such-heading)',
        '`[in code](missing.md)` [web](https://example.org/missing.md) <http://localhost:8787/x>',
        '```',
        '[in a block](missing.md)',
        '```',
      ].join('\n'),
    }
    const read = (file: string) => texts[file] ?? readFileSync(file, 'utf8')
    const exists = (file: string) => file in texts || existsSync(file)
    expect(brokenLinks([files.a], read, exists)).toEqual([
      'docs/a.md: missing.md (no such file)',
      'docs/a.md: ../README.md#no-such-heading (no heading "#no-such-heading" in README.md)',
    ])
  })
})
