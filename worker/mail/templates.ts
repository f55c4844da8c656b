import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../contract/constants'
import { keysAfterPasswordChangeText } from '../../contract/profile'

export interface RenderedEmail {
  subject: string
  text: string
  html: string
}

/**
 * A header value on one line: CR, LF and the other control characters become a space, whatever a
 * name or reason put into it, so no input can add a header or end the headers.
 */
export function headerSafe(value: string): string {
  return value.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ').trim()
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

interface Action {
  label: string
  url: string
}

export interface LayoutParts {
  heading: string
  paragraphs: string[]
  /** Key-value details shown as a small table (e.g. who named you, and as what). */
  details?: Array<[string, string]>
  action?: Action
  /** Further links, shown as plain text links under the main button. */
  links?: Action[]
  footnote?: string
}

// One layout for every message: a readable HTML version (inline styles only, as mail clients need)
// and a plain-text version with the same words and the link written out.
export function render(rawSubject: string, parts: LayoutParts): RenderedEmail {
  const subject = headerSafe(rawSubject)
  const paragraphsHtml = parts.paragraphs
    .map((p) => `<p style="margin:0 0 16px;line-height:1.5;color:#1e293b">${escapeHtml(p)}</p>`)
    .join('')
  const actionHtml = parts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.url)}" style="background:#1d4ed8;color:#ffffff;padding:12px 20px;border-radius:6px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(parts.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#475569">If the button does not work, copy this address into your browser:<br><span style="word-break:break-all">${escapeHtml(parts.action.url)}</span></p>`
    : ''
  const detailsHtml = parts.details?.length
    ? `<table role="presentation" style="margin:0 0 16px;border-collapse:collapse;font-size:14px;color:#1e293b">${parts.details
        .map(
          ([k, v]) =>
            `<tr><td style="padding:4px 16px 4px 0;color:#475569">${escapeHtml(k)}</td><td style="padding:4px 0;font-weight:600">${escapeHtml(v)}</td></tr>`,
        )
        .join('')}</table>`
    : ''
  const linksHtml = parts.links?.length
    ? `<p style="margin:0 0 16px;font-size:14px;line-height:1.8">${parts.links
        .map((l) => `<a href="${escapeHtml(l.url)}" style="color:#1d4ed8">${escapeHtml(l.label)}</a>`)
        .join('<br>')}</p>`
    : ''
  const footnoteHtml = parts.footnote
    ? `<p style="margin:16px 0 0;font-size:13px;color:#475569">${escapeHtml(parts.footnote)}</p>`
    : ''
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f1f5f9;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<p style="margin:0 0 24px;font-weight:700;color:#1d4ed8">${PRODUCT_NAME}</p>
<h1 style="margin:0 0 16px;font-size:20px;color:#0f172a">${escapeHtml(parts.heading)}</h1>
${paragraphsHtml}${detailsHtml}${actionHtml}${linksHtml}${footnoteHtml}
<hr style="border:none;border-top:1px solid #e2e8f0;margin:24px 0">
<p style="margin:0;font-size:12px;color:#64748b">${PRODUCT_NAME} · Questions? Write to ${SUPPORT_EMAIL}</p>
</div></body></html>`
  const text = [
    parts.heading,
    '',
    ...parts.paragraphs.flatMap((p) => [p, '']),
    ...(parts.details?.length ? [...parts.details.map(([k, v]) => `${k}: ${v}`), ''] : []),
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`, ''] : []),
    ...(parts.links ?? []).flatMap((l) => [`${l.label}: ${l.url}`]),
    ...(parts.links?.length ? [''] : []),
    ...(parts.footnote ? [parts.footnote, ''] : []),
    `${PRODUCT_NAME} · Questions? Write to ${SUPPORT_EMAIL}`,
  ].join('\n')
  return { subject, text, html }
}

export function passwordResetEmail(params: { displayName: string; resetUrl: string }): RenderedEmail {
  return render(`Reset your ${PRODUCT_NAME} password`, {
    heading: 'Reset your password',
    paragraphs: [
      `Hello ${params.displayName},`,
      'Someone asked to reset the password of your account. Use the link below within one hour to choose a new one. The link works once.',
      'Resetting your password restores access to your account only. It cannot recover your vault passphrase, and without the passphrase your encrypted vault items cannot be read.',
    ],
    action: { label: 'Choose a new password', url: params.resetUrl },
    footnote: 'If you did not ask for this, ignore this message: your password stays as it is.',
  })
}

export function passwordChangedEmail(params: {
  displayName: string
  loginUrl: string
  keptCurrentDevice?: boolean
  /** Security keys removed with the change (a change from the profile says what it did to the keys). */
  removedKeys?: number
  /** Security keys that can still sign in after it. */
  keysLeft?: number
  /** Two-factor sign-in was turned off, no key being left. */
  twoFactorTurnedOff?: boolean
  /** "This wasn't me" (worker/services/trust-mail.ts), as every change of trust has. */
  notMeUrl?: string
}): RenderedEmail {
  const keys =
    params.removedKeys === undefined || params.keysLeft === undefined
      ? ''
      : keysAfterPasswordChangeText({ removedKeys: params.removedKeys, keysLeft: params.keysLeft, twoFactorTurnedOff: params.twoFactorTurnedOff })
  return render(`Your ${PRODUCT_NAME} password was changed`, {
    heading: 'Your password was changed',
    paragraphs: [
      `Hello ${params.displayName},`,
      params.keptCurrentDevice
        ? 'The password of your account was just changed from your profile. Every other device that was signed in has been signed out.'
        : 'The password of your account was just changed, and every device that was signed in has been signed out.',
      ...(keys ? [keys] : []),
    ],
    action: { label: 'Sign in', url: params.loginUrl },
    ...(params.notMeUrl ? { links: [{ label: 'This wasn’t me', url: params.notMeUrl }] } : {}),
    footnote: params.notMeUrl
      ? `If you did not do this, choose “This wasn’t me”: every device is signed out, what was added since is removed, and you choose a new password. Questions: ${SUPPORT_EMAIL}.`
      : `If you did not do this, reset your password now and write to ${SUPPORT_EMAIL}.`,
  })
}

/** To the owner's address at registration (and on request): one click confirms it. */
export function emailConfirmationEmail(params: { displayName: string; confirmUrl: string }): RenderedEmail {
  return render(`Confirm your e-mail address for ${PRODUCT_NAME}`, {
    heading: 'Confirm your e-mail address',
    paragraphs: [
      `Hello ${params.displayName},`,
      `Welcome to ${PRODUCT_NAME}. Please confirm that this address is yours. Until you do, invitations to your beneficiaries and approvers wait, so that nobody can be e-mailed in your name from an address that is not yours.`,
      'The link works for seven days.',
    ],
    action: { label: 'Confirm my e-mail address', url: params.confirmUrl },
    footnote: 'If you did not create an account, ignore this message: nothing will be sent in your name.',
  })
}

/** To the owner: a beneficiary's address or key changed (so a change they did not make is seen at once). */
export function beneficiaryChangedOwnerEmail(params: { displayName: string; beneficiaryName: string; change: 'email' | 'key'; appUrl: string }): RenderedEmail {
  const what = params.change === 'email' ? 'e-mail address' : 'key (a new Beneficiary Access Kit)'
  return render(`The ${params.change === 'email' ? 'e-mail address' : 'key'} of ${params.beneficiaryName} was changed`, {
    heading: `A beneficiary's ${params.change === 'email' ? 'e-mail address' : 'key'} was changed`,
    paragraphs: [
      `Hello ${params.displayName},`,
      `The ${what} of your beneficiary ${params.beneficiaryName} was just changed in your vault.`,
      'If you made this change, there is nothing to do.',
    ],
    action: { label: 'Review your beneficiaries', url: `${params.appUrl}/beneficiaries` },
    footnote: `If you did not make this change, change your password now, check your beneficiaries, and write to ${SUPPORT_EMAIL}.`,
  })
}

/** To the beneficiary's address before the change: they would otherwise never know. */
export function beneficiaryChangedOldAddressEmail(params: { beneficiaryName: string; ownerName: string; change: 'email' | 'key' }): RenderedEmail {
  return render(`${params.ownerName} changed your details in their ${PRODUCT_NAME} vault`, {
    heading: 'Your details were changed',
    paragraphs: [
      `Hello ${params.beneficiaryName},`,
      params.change === 'email'
        ? `${params.ownerName} changed the e-mail address at which their ${PRODUCT_NAME} vault reaches you. This address will no longer hear from it.`
        : `${params.ownerName} replaced your Beneficiary Access Kit: the kit you were given before no longer opens what they leave you. They should give you the new one.`,
      `If you did not expect this, please tell ${params.ownerName}.`,
    ],
  })
}

export interface BeneficiaryInvitation {
  fullName: string
  email: string
  relationship: string
  ownerName: string
  secrecyMode: boolean
  verifyUrl: string
  optInUrl: string
  unsubscribeUrl: string
}

/** Sent when an owner names a beneficiary (and on Resend Verification). */
export function beneficiaryInvitationEmail(p: BeneficiaryInvitation): RenderedEmail {
  const details: Array<[string, string]> = p.secrecyMode
    ? [['Your e-mail', p.email]]
    : [
        ['Name', p.fullName],
        ['Your e-mail', p.email],
        ['Relationship', p.relationship],
        ['Vault owner', p.ownerName],
      ]
  return render(`You've Been Named as a Beneficiary`, {
    heading: `You've Been Named as a Beneficiary`,
    paragraphs: [
      `Hello ${p.fullName},`,
      `${p.ownerName} uses ${PRODUCT_NAME} to keep important documents and information safe, and has named you as someone who should receive some of it one day.`,
      'Nothing is shared with you now. Items become available only when conditions the owner set are met, and you will then be told by e-mail. To open them you will need the private key from the Beneficiary Access Kit the owner gives you: keep it safe when you receive it.',
      ...(p.secrecyMode
        ? [
            'Secrecy Mode: the owner asked that details stay private until the conditions are met. Notifications are delayed and this message says no more than it must.',
          ]
        : []),
      'Please confirm that this address is yours, so that messages reach you when the time comes.',
    ],
    details,
    action: { label: 'Complete Verification', url: p.verifyUrl },
    links: [
      { label: 'Accept & Opt In to Notifications', url: p.optInUrl },
      { label: 'No, unsubscribe from all notifications', url: p.unsubscribeUrl },
    ],
    footnote: `We never ask for passwords or keys by e-mail. If you do not know ${p.ownerName}, you can ignore this message.`,
  })
}

export interface ApproverInvitation {
  fullName: string
  role: string
  ownerName: string
  verifyUrl: string
}

/** Sent when an owner names an approver. */
export function approverInvitationEmail(p: ApproverInvitation): RenderedEmail {
  return render(`${p.ownerName} named you as an approver`, {
    heading: 'You have been named as an approver',
    paragraphs: [
      `Hello ${p.fullName},`,
      `${p.ownerName} uses ${PRODUCT_NAME} to pass important documents to the people they choose, and has asked you to act as a trusted approver (${p.role}).`,
      'Approvers review the identity documents of beneficiaries and confirm releases when a policy asks for it. You will be told by e-mail when an approval action is needed.',
      'Please confirm that this address is yours.',
    ],
    action: { label: 'Complete Verification', url: p.verifyUrl },
    footnote: `If you do not know ${p.ownerName}, you can ignore this message.`,
  })
}

export interface IdentityReviewRequest {
  approverName: string
  ownerName: string
  beneficiaryName: string
  documentLabel: string
  reviewUrl: string
}

/** Asks one approver to review a beneficiary's identity document through their own link. */
/** To a beneficiary whose identity document an approver rejected: why, and what to send instead. */
export function identityRejectedEmail(p: { fullName: string; ownerName: string; reason: string; accepted: string | null; portalUrl: string }): RenderedEmail {
  return render('Your identity document was not accepted', {
    heading: 'Your identity document was not accepted',
    paragraphs: [
      `Hello ${p.fullName},`,
      `An approver named by ${p.ownerName} reviewed the identity document sent for you and did not accept it. Their note: "${p.reason}"`,
      p.accepted
        ? `Please send a clear, current copy of one of these instead: ${p.accepted}.`
        : 'Please send a clear, current copy of a government-issued photo ID instead.',
      'Open the link below and upload it from the same page. What waits on your identity stays waiting until a document is accepted.',
    ],
    action: { label: 'Send another document', url: p.portalUrl },
    footnote: 'The link is yours alone; please do not forward it.',
  })
}

export function identityReviewRequestEmail(p: IdentityReviewRequest): RenderedEmail {
  return render(`Please review ${p.beneficiaryName}'s identity document`, {
    heading: 'An identity document needs your review',
    paragraphs: [
      `Hello ${p.approverName},`,
      `${p.ownerName} named you as an approver. ${p.beneficiaryName}'s identity document (${p.documentLabel}) has been submitted, and ${p.ownerName}'s instructions ask for it to be checked before anything can be released to ${p.beneficiaryName}.`,
      'Open the link below to see the document, then approve or reject it with a short note explaining your decision. The link is yours alone; please do not forward it.',
    ],
    action: { label: 'Review the document', url: p.reviewUrl },
    footnote: `The link expires in 30 days. If you do not know ${p.ownerName}, you can ignore this message.`,
  })
}
