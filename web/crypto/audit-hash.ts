import { bufferSource, subtle } from './subtle'
import { utf8 } from './encoding'

/** SHA-256 of a string's UTF-8 bytes as lower-case hex: the audit chain's digest (contract/audit.ts). */
export async function sha256Hex(input: string): Promise<string> {
  const digest = new Uint8Array(await subtle().digest('SHA-256', bufferSource(utf8(input))))
  let hex = ''
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0')
  return hex
}
