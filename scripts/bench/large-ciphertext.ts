// Run by upload.mjs with tsx: the product holds files of at most 100 MB (seeds 001, MAX_FILE_BYTES),
// so the bench's 500 MiB download is the ciphertext of 500 MiB of random bytes sealed, by the
// app's own crypto (web/crypto), under a real item's data key and id: the vault passphrase and
// salt give the master key, which unwraps the item's key. Writes the ciphertext to a file and
// prints one JSON line: the plaintext's SHA-256 and the ciphertext's size.
// Usage: large-ciphertext.ts <out> <bytes> <chunkBytes> <itemId> <wrappedKey> <vaultSalt> (passphrase on stdin)
import { createHash, randomFillSync } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import { deriveMasterKey, encryptStream, unwrapDataKey } from '../../web/crypto'

const [out, bytesArg, chunkArg, itemId, wrappedKey, salt] = process.argv.slice(2)
const size = Number(bytesArg)
let passphrase = ''
for await (const piece of process.stdin) passphrase += piece
const dek = await unwrapDataKey(wrappedKey!, await deriveMasterKey(passphrase.trim(), salt!))

const hash = createHash('sha256')
async function* plaintext() {
  const PIECE = 4 * 1024 * 1024
  for (let sent = 0; sent < size; ) {
    const piece = randomFillSync(new Uint8Array(Math.min(PIECE, size - sent)))
    if (sent === 0) piece.set(new TextEncoder().encode('%PDF-1.7'))
    hash.update(piece)
    sent += piece.length
    yield piece
  }
}

const file = createWriteStream(out!)
let cipherSize = 0
for await (const chunk of encryptStream(dek, itemId!, plaintext(), Number(chunkArg))) {
  cipherSize += chunk.length
  if (!file.write(chunk)) await once(file, 'drain')
}
file.end()
await once(file, 'finish')
console.log(JSON.stringify({ digest: hash.digest('hex'), cipherSize }))
