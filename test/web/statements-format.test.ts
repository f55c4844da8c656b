import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { beneficiaryStatement, digestOfBase64, grantsStatement, sha256Hex } from '../../contract/vault-statements'

// FORMAT.md's worked examples of the beneficiary statement (v2) and the grants statement, byte for
// byte: an independent implementation builds these from the document alone.

const FORMAT = readFileSync(new URL('../../web/crypto/FORMAT.md', import.meta.url), 'utf8')
const section = (title: string) => FORMAT.slice(FORMAT.indexOf(`## ${title}`)).split(/\n## /)[0]!
const bytes = (text: string) => new TextEncoder().encode(text).length

const OWNER = '3f2b8c1e-7d4a-4e9b-9a61-0c5d2e8f4b17'
const HEIR = '5a1d6e0c-2b7f-4c39-8e14-9d3a7f2c6b58'
const KEY =
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAsagjgSKHEVHtLmAZvAPFHwU4PByRKZHAN0cFs+okGeanZTE2h/fQFg8uoUL0K5AaCRpfJNJQuF8bCxP0tIflEGp/WnzHdGxUcix/FpHx9i4m1bJLKyxx5ZC+DhXUsgiBYopat/sAQ06a5Fhxq9ZFcyl4r23gRuWoYNd54JzPf2/0CCS96zI7tuZOk8db9upEE/NpN+9V5vxBADe+5QGaj6GUlgBvmI9CF3LkDjejWpXfSeGR8zC3Ckz2msancGZscExqEpEWjEWVyFGbWAMniGUuaDqnSfaV+YXbtBDqi592Jsh9rOSXyFY/4aPqM1gYy28XU/+qJAb/pPMT32AG7wIDAQAB'

describe('FORMAT.md, "Beneficiary statements (v2)"', () => {
  const text = beneficiaryStatement({
    ownerId: OWNER,
    sequence: 42,
    beneficiaryId: HEIR,
    fullName: 'Anna "Anni" Keller-Müller',
    relationship: 'Daughter',
    email: '  Anna.Keller@Example.org ',
    keyVersion: 2,
    publicKey: KEY,
  })
  const doc = section('Beneficiary statements (v2)')

  it('is the nine lines shown, the key in full', () => {
    const shown = /```\n(legacy-vault:beneficiary:v2[\s\S]*?)\n```/.exec(doc)![1]!
    expect(text.split('\n')).toHaveLength(9)
    expect(text.replace(KEY, `${KEY.slice(0, 64)}…${KEY.slice(-10)}`)).toBe(shown)
  })

  it('has the byte length and SHA-256 given', () => {
    expect(bytes(text)).toBe(565)
    expect(sha256Hex(text)).toBe('44dae755f937010d16709d70130edc47b325b6d3728cf931872f00a8d3edb433')
    expect(doc).toContain('565 bytes of UTF-8')
    expect(doc).toContain('`44dae755f937010d16709d70130edc47b325b6d3728cf931872f00a8d3edb433`')
  })

  it('keeps a name on its line whatever it holds', () => {
    const tricky = beneficiaryStatement({ ownerId: OWNER, sequence: 1, beneficiaryId: HEIR, fullName: 'Eve\n42', relationship: 'x\u2028y', email: 'e@x.org', keyVersion: 1, publicKey: KEY })
    expect(tricky.split('\n')).toHaveLength(9)
  })
})

describe('FORMAT.md, "Grants statements"', () => {
  const grants = [
    { itemId: 'c0ffee00-1111-4222-8333-444455556666', beneficiaryId: HEIR, keyVersion: 2, wrappedKey: 'AAECAwQFBgcICQ==' },
    { itemId: '0badcafe-7777-4888-9999-aaaabbbbcccc', beneficiaryId: HEIR, keyVersion: 2, wrappedKey: '//79/Pv6+fj39g==' },
  ]
  const doc = section('Grants statements')
  const text = grantsStatement(OWNER, grants)

  it('digests each wrapped key, sorts the lines and hashes them as shown', () => {
    expect(digestOfBase64('AAECAwQFBgcICQ==')).toBe('1f825aa2f0020ef7cf91dfa30da4668d791c5d4824fc8e41354b89ec05795ab3')
    expect(digestOfBase64('//79/Pv6+fj39g==')).toBe('5d2efcf53977da70d85f66779b6a37d289b073ec80e608d0d5c2137f4297d25e')
    const lines = /```\n(0badcafe[\s\S]*?)\n```/.exec(doc)![1]!
    expect(sha256Hex(`${lines}\n`)).toBe('0508b36ec37348ff8ff53789e7df8597c70d4853ba5c5d857ce8233e21388bfd')
  })

  it('is the four lines shown, with the byte length and SHA-256 given, in any order of the grants', () => {
    expect(text).toBe(/```\n(legacy-vault:grants:v1[\s\S]*?)\n```/.exec(doc)![1]!)
    expect(grantsStatement(OWNER, [...grants].reverse())).toBe(text)
    expect(bytes(text)).toBe(145)
    expect(sha256Hex(text)).toBe('ea11efa254f53558a43769e5356d0d57fbb8b3ac74b219ae223e004c242e7747')
    expect(doc).toContain('145 bytes, SHA-256 `ea11efa254f53558a43769e5356d0d57fbb8b3ac74b219ae223e004c242e7747`')
  })

  it('changes with any grant', () => {
    expect(grantsStatement(OWNER, [grants[0]!, { ...grants[1]!, wrappedKey: 'AAAA' }])).not.toBe(text)
    expect(grantsStatement(OWNER, [grants[0]!, { ...grants[1]!, keyVersion: 3 }])).not.toBe(text)
    expect(grantsStatement(OWNER, [grants[0]!])).not.toBe(text)
  })
})
