// Run by upload.mjs with tsx: the product holds files of at most 100 MB (seeds 001, MAX_FILE_BYTES),
// so the bench's 500 MiB download is the ciphertext of 500 MiB of random bytes sealed, by the
// app's own crypto (web/crypto), under a real item's data key and id: the vault passphrase and
// salt give the master key, which unwraps the item's key. Each chunk is sealed as
// web/crypto/content.ts encryptChunk seals it (that file reaches the SPA's modules, which the
// scripts' type-check does not compile, so its two calls are made here). Writes the ciphertext to a file and
// prints one JSON line: the plaintext's SHA-256 and the ciphertext's size.
// Usage: large-ciphertext.ts <out> <bytes> <chunkBytes> <itemId> <wrappedKey> <vaultSalt> [<wrappedVaultKey>] (passphrase on stdin)
// With a wrapped vault key (a vault of format 2), the passphrase's key unwraps it and it unwraps the item's key.
import { createHash, randomFillSync } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { AAD_PURPOSE, buildAad } from '../../web/crypto/aad'
import { unwrapDataKey } from '../../web/crypto/data-key'
import { seal } from '../../web/crypto/envelope'
import { deriveMasterKey, derivePassphraseKey } from '../../web/crypto/master-key'
import { unwrapVaultKey } from '../../web/crypto/vault-key'

const [out, bytesArg, chunkArg, itemId, wrappedKey, salt, vaultKey] = process.argv.slice(2)
const size = Number(bytesArg)
let passphrase = ''
for await (const piece of process.stdin) passphrase += piece
const dek = await unwrapDataKey(
  wrappedKey!,
  vaultKey ? await unwrapVaultKey(vaultKey, await derivePassphraseKey(passphrase.trim(), salt!)) : await deriveMasterKey(passphrase.trim(), salt!),
)

const chunkBytes = Number(chunkArg)
const hash = createHash('sha256')
const file = createWriteStream(out!)
let cipherSize = 0
const chunks = Math.max(1, Math.ceil(size / chunkBytes))
for (let index = 0; index < chunks; index++) {
  const piece = randomFillSync(new Uint8Array(Math.min(chunkBytes, size - index * chunkBytes)))
  if (index === 0) piece.set(new TextEncoder().encode('%PDF-1.7'))
  hash.update(piece)
  const chunk = await seal(dek, piece, buildAad(AAD_PURPOSE.chunk, itemId!, index, index === chunks - 1))
  cipherSize += chunk.length
  if (!file.write(chunk)) await once(file, 'drain')
}
file.end()
await once(file, 'finish')
console.log(JSON.stringify({ digest: hash.digest('hex'), cipherSize }))
