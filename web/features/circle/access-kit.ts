import { PRODUCT_NAME } from '../../../contract/constants'
import { KIT_VAULT_FINGERPRINT_LABEL } from '../../../contract/releases'
import { keyFingerprint } from '../../../contract/vault-statements'
import { vaultSession } from '@/features/vault/vault-session'

// The Beneficiary Access Kit (ARCHITECTURE.md §3): the only copy of a beneficiary's private key,
// made in the owner's browser and handed over outside the service. One description of its
// content, rendered twice: as a text file to download and as a page to print.

export interface AccessKit {
  fullName: string
  email: string
  ownerName: string
  createdAt: Date
  fingerprint: string
  /** keyFingerprint of the owner's vault signing key: the portal checks every item's seal against it. */
  vaultFingerprint: string
  portalUrl: string
  privateKeyPem: string
}

export interface AccessKitContent {
  title: string
  warning: string
  facts: Array<[label: string, value: string]>
  about: string[]
  steps: string[]
  keyHeading: string
  keyIntro: string
  pem: string
  /** The vault fingerprint's line, printed right above the key so that whoever copies the key copies it too. */
  vaultLine: string
}


/**
 * The unlocked vault's fingerprint for a kit made now. The vault has just signed the kit's key, so
 * it has one; were it somehow gone, the kit is still made (its key must not be lost) and reads as
 * one printed before kits carried the fingerprint.
 */
export function currentVaultFingerprint(): string {
  const signer = vaultSession.signer()
  return signer ? keyFingerprint(signer.publicKey) : ''
}

export function accessKitContent(kit: AccessKit): AccessKitContent {
  const date = kit.createdAt.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' })
  return {
    title: `${PRODUCT_NAME} — Beneficiary Access Kit`,
    warning: `Keep this document private and safe. Anyone who holds the private key at the end of it can open what ${kit.ownerName} leaves to ${kit.fullName}. ${PRODUCT_NAME} does not have a copy and cannot replace it.`,
    facts: [
      ['Beneficiary', kit.fullName],
      ['E-mail', kit.email],
      ['Vault owner', kit.ownerName],
      ['Date', date],
      ['Key fingerprint', kit.fingerprint],
      [KIT_VAULT_FINGERPRINT_LABEL, kit.vaultFingerprint],
      ['Beneficiary portal', kit.portalUrl],
    ],
    about: [
      `${kit.ownerName} uses ${PRODUCT_NAME} to keep important documents, photos and passwords encrypted, and has named you, ${kit.fullName}, as a beneficiary.`,
      'Nothing is shared with you now. Items become available to you only when the conditions the owner set are met. Everything left to you is locked with the private key in this kit: without it, nobody can open those items, not even us.',
    ],
    steps: [
      'Keep this kit somewhere safe and private: with your important papers, in a safe, or with your lawyer. Do not e-mail it, photograph it or upload it anywhere.',
      `Confirm your e-mail address with the link ${PRODUCT_NAME} sent to ${kit.email}. If you did not receive it, ask ${kit.ownerName} to send it again.`,
      `When the time comes you will receive an e-mail from ${PRODUCT_NAME}. Follow its link to the beneficiary portal (${kit.portalUrl}). You may be asked to verify your identity first.`,
      `When the portal asks for your private key, give it the whole block below, from the “${KIT_VAULT_FINGERPRINT_LABEL}” line to the END line, or load the kit’s text file. The key is used only inside your own browser and is never sent to us.`,
      `The key fingerprint above identifies this kit. ${kit.ownerName} sees the same fingerprint in their account, so you can check together that you hold the right kit.`,
      `The vault fingerprint identifies ${kit.ownerName}’s vault. ${kit.ownerName}’s vault seals every item it holds, and the portal uses this fingerprint to check that each item it shows you really comes from that vault: anything that does not is refused, not opened. If the portal ever says its vault key is not the one in your kit, do not trust what it lists.`,
    ],
    keyHeading: 'Private key',
    keyIntro: `Copy exactly, from the “${KIT_VAULT_FINGERPRINT_LABEL}” line to the END line.`,
    pem: kit.privateKeyPem.trimEnd(),
    vaultLine: `${KIT_VAULT_FINGERPRINT_LABEL}: ${kit.vaultFingerprint}`,
  }
}

export function accessKitText(kit: AccessKit): string {
  const c = accessKitContent(kit)
  const width = Math.max(...c.facts.map(([label]) => label.length)) + 2
  const rule = '='.repeat(c.title.length)
  return [
    c.title,
    rule,
    '',
    c.warning,
    '',
    ...c.facts.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    '',
    'WHAT THIS IS',
    ...c.about.flatMap((p) => [p, '']),
    'WHAT TO DO',
    ...c.steps.map((step, i) => `${i + 1}. ${step}`),
    '',
    c.keyHeading.toUpperCase(),
    c.keyIntro,
    '',
    c.vaultLine,
    c.pem,
    '',
  ].join('\n')
}

/** 'Jane Doe-Smith' → 'jane-doe-smith'; accents dropped; never empty. */
export function nameSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return slug || 'beneficiary'
}

export function accessKitFileName(fullName: string): string {
  return `access-kit-${nameSlug(fullName)}.txt`
}

/** Saves the kit as a text file through an object URL, which is released right after. */
export function downloadAccessKit(kit: AccessKit): void {
  const blob = new Blob([accessKitText(kit)], { type: 'text/plain;charset=utf-8' })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = accessKitFileName(kit.fullName)
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // Give the browser a moment to start the download before the URL goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
