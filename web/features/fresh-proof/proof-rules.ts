/** The proofs typed into "Confirm it's you" (a security key is proved by the browser instead). */
export type TypedProof = 'password' | 'authenticator'

export type ProofBody = { method: 'password'; password: string } | { method: 'authenticator'; code: string }

/**
 * What "Confirm it's you" sends: the password exactly as typed (spaces may be part of it), a code
 * without the spaces around it. Nothing typed (or only spaces): null, nothing is sent.
 */
export function proofBody(method: TypedProof, secret: string): ProofBody | null {
  if (!secret.trim()) return null
  return method === 'password' ? { method, password: secret } : { method, code: secret.trim() }
}

/** What the dialog asks for when nothing was typed. */
export function missingProofText(method: TypedProof): string {
  return method === 'password' ? 'Enter your password' : 'Enter the code'
}
