// The vault setup modal's strength meter, scored exactly as seeds 001 §5 says.

export const STRENGTH_MIN = 40
export const STRENGTH_STRONG = 70

export interface PassphraseStrength {
  score: number
  label: 'Weak' | 'Good' | 'Strong'
  tone: 'red' | 'yellow' | 'green'
  hints: string[]
}

export function scorePassphrase(passphrase: string): PassphraseStrength {
  let score = 0
  const hints: string[] = []
  if (passphrase.length >= 12) score += 20
  else hints.push('Use at least 12 characters')
  if (passphrase.length >= 20) score += 10
  if (/[a-z]/.test(passphrase)) score += 10
  else hints.push('Include lowercase letters')
  if (/[A-Z]/.test(passphrase)) score += 10
  else hints.push('Include uppercase letters')
  if (/[0-9]/.test(passphrase)) score += 10
  else hints.push('Include numbers')
  if (/[^A-Za-z0-9]/.test(passphrase)) score += 15
  else hints.push('Include special characters')
  if (passphrase.length >= 16) score += 15
  score = Math.min(score, 100)
  if (score < STRENGTH_MIN) return { score, label: 'Weak', tone: 'red', hints }
  if (score < STRENGTH_STRONG) return { score, label: 'Good', tone: 'yellow', hints }
  return { score, label: 'Strong', tone: 'green', hints }
}
