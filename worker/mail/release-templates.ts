import { PRODUCT_NAME } from '../../contract/constants'
import { describeCopyItem, RELEASE_LIMITS, type DownloadedCopy } from '../../contract/releases'
import { CLOCK_MESSAGES } from '../../contract/triggers'
import { emailDate } from './dates'
import { render, type RenderedEmail } from './templates'

// Messages of the release engine. They name people and counts, never items: file names are
// sealed in the vault, and an e-mail is no place for them anyway.


/** The check-in e-mail and its reminder; `deadline` is the engine's firing time (worker/engine/clock.ts). */
export function checkInEmail(p: {
  /** The owner's zone (Account.timeZone): every date below is written in it. */
  timeZone: string
  displayName: string
  checkInUrl: string
  deadline: number
  frequencyDays: number
  graceDays: number
  reminder: boolean
}): RenderedEmail {
  return render(p.reminder ? `Reminder: please check in with ${PRODUCT_NAME}` : `Time to check in with ${PRODUCT_NAME}`, {
    heading: p.reminder ? 'We still have not heard from you' : 'Are you still there?',
    paragraphs: [
      `Hello ${p.displayName},`,
      p.reminder
        ? 'You have not answered your check-in e-mail yet.'
        : 'Your inactivity monitoring asks you to check in regularly. Please confirm that you are still here.',
      CLOCK_MESSAGES.emailSchedule(p.frequencyDays, p.graceDays),
      `If we hear nothing by ${emailDate(p.deadline, p.timeZone)}, your inactivity triggers will activate and your release instructions will start.`,
    ],
    action: { label: "I'm still here", url: p.checkInUrl },
    footnote: 'Signing in to your account also counts as a check-in.',
  })
}

export function releaseStartedOwnerEmail(p: {
  /** The owner's zone (Account.timeZone): every date below is written in it. */
  timeZone: string
  displayName: string
  triggerLabel: string
  reason: string | null
  releaseAt: number
  cancelUrl: string
  /** Whether anything waits (a safety window, a delay, sign-offs); otherwise it all went at once. */
  waiting: boolean
}): RenderedEmail {
  const fired = `Your ${p.triggerLabel} trigger fired${p.reason ? ` (${p.reason})` : ''}.`
  return render(`A release of your vault has started`, {
    heading: 'A release of your vault has started',
    paragraphs: p.waiting
      ? [
          `Hello ${p.displayName},`,
          `${fired} Under your instructions, items will be released to your beneficiaries at ${emailDate(p.releaseAt, p.timeZone)} at the earliest.`,
          'If this is a mistake and you are well, cancel it now with one click. Checking in from the app, or signing in, cancels it too.',
        ]
      : [
          `Hello ${p.displayName},`,
          `${fired} Under your instructions, items were released to your beneficiaries at once.`,
          'If you did not expect this, use the link below to stop anything still waiting, and change your password.',
        ],
    action: { label: 'Cancel the release', url: p.cancelUrl },
    footnote: 'If you meant this to happen, you need do nothing.',
  })
}

export function releaseApprovalRequestEmail(p: {
  name: string
  ownerName: string
  policyName: string
  triggerLabel: string
  approvalUrl: string
}): RenderedEmail {
  return render(`${p.ownerName}'s release needs your approval`, {
    heading: 'A release needs your approval',
    paragraphs: [
      `Hello ${p.name},`,
      `${p.ownerName} named you as an approver. Their ${p.triggerLabel} trigger has fired, and their instructions ("${p.policyName}") ask approvers to sign off before anything is released.`,
      'Open the link to see what would be released and to whom, then approve or reject it. The link is yours alone; please do not forward it.',
    ],
    action: { label: 'Review the release', url: p.approvalUrl },
  })
}

export function deathReportLinkEmail(p: { approverName: string; ownerName: string; reportUrl: string }): RenderedEmail {
  return render(`Your role if ${p.ownerName} passes away`, {
    heading: `If ${p.ownerName} passes away`,
    paragraphs: [
      `Hello ${p.approverName},`,
      `${p.ownerName} has asked that their instructions start when one of their approvers confirms their death. You are one of those approvers.`,
      'Please keep this message. If the time comes, open the link below and confirm the death certificate. You will be asked for its number and the date of death. The link is yours alone.',
    ],
    action: { label: 'Confirm a death certificate', url: p.reportUrl },
    footnote: `${p.ownerName} is told of every confirmation and can cancel a release started by mistake.`,
  })
}

export function releaseNoticeEmail(p: { fullName: string; ownerName: string }): RenderedEmail {
  return render(`${p.ownerName} has started a release to you`, {
    heading: 'A release to you has started',
    paragraphs: [
      `Hello ${p.fullName},`,
      `${p.ownerName}'s instructions for passing on their documents have started. Some conditions the owner set still have to be met; you will receive another e-mail with a link when items are ready for you.`,
      'Keep your Beneficiary Access Kit at hand: you will need its private key to open what you receive.',
    ],
  })
}

export function assetsReleasedEmail(p: { fullName: string; ownerName: string; count: number; portalUrl: string; identityRequired: boolean }): RenderedEmail {
  return render(`${p.ownerName} has left something for you`, {
    heading: 'Items have been released to you',
    paragraphs: [
      `Hello ${p.fullName},`,
      `${p.count === 1 ? 'One item' : `${p.count} items`} from ${p.ownerName}'s vault ${p.count === 1 ? 'has' : 'have'} been released to you.`,
      p.identityRequired
        ? 'Before you can download them, the owner asked that your identity be verified: open the link and upload a government-issued photo ID.'
        : 'Open the link, load the private key from your Beneficiary Access Kit, then download. Everything is decrypted on your own device.',
      'Each item can be downloaded a limited number of times and for a limited period; the page shows both.',
    ],
    action: { label: 'Open your released items', url: p.portalUrl },
    footnote: 'The link is yours alone; please do not forward it.',
  })
}

/** Downloads listed in an e-mail: the rest are in the app's audit log. */
const COPIES_LISTED = 20

/** The owner's confirmation of a cancel: what stopped, what was withdrawn, and what had already been downloaded. */
export function releaseCancelledOwnerEmail(p: {
  /** The owner's zone (Account.timeZone): every date below is written in it. */
  timeZone: string
  displayName: string
  releases: number
  withdrawnItems: number
  heirsTold: number
  downloaded: DownloadedCopy[]
}): RenderedEmail {
  const copies = p.downloaded.slice(0, COPIES_LISTED).map((c) => `${describeCopyItem(c)}, downloaded by ${c.beneficiaryName} on ${emailDate(Date.parse(c.downloadedAt), p.timeZone)}.`)
  return render('You cancelled a release of your vault', {
    heading: 'The release was cancelled',
    paragraphs: [
      `Hello ${p.displayName},`,
      `${p.releases === 1 ? 'One release' : `${p.releases} releases`} of your vault ${p.releases === 1 ? 'was' : 'were'} cancelled.` +
        (p.withdrawnItems > 0
          ? ` ${p.withdrawnItems === 1 ? 'One item that was' : `${p.withdrawnItems} items that were`} available to your beneficiaries ${p.withdrawnItems === 1 ? 'has' : 'have'} been withdrawn and can no longer be downloaded.`
          : ' Nothing had been made available to anyone.'),
      p.heirsTold > 0 ? `${p.heirsTold === 1 ? 'The beneficiary who was' : `The ${p.heirsTold} beneficiaries who were`} told of the release ${p.heirsTold === 1 ? 'has' : 'have'} been told it was withdrawn.` : '',
      ...(copies.length > 0
        ? [
            'Already downloaded before you cancelled (a downloaded copy cannot be taken back):',
            ...copies,
            ...(p.downloaded.length > COPIES_LISTED ? [`And ${p.downloaded.length - COPIES_LISTED} more downloads, listed in your audit log.`] : []),
          ]
        : ['No item had been downloaded.']),
    ].filter(Boolean),
    footnote: 'If you did not cancel this release, sign in and review your triggers and security at once.',
  })
}

/** An heir who was told of a release hears that the owner withdrew it. */
export function releaseWithdrawnEmail(p: { fullName: string; ownerName: string }): RenderedEmail {
  return render(`${p.ownerName} has withdrawn a release to you`, {
    heading: 'A release to you was withdrawn',
    paragraphs: [
      `Hello ${p.fullName},`,
      `${p.ownerName} has withdrawn the release we told you about. Whatever it made available to you can no longer be downloaded, and you need do nothing.`,
      `If ${p.ownerName}'s instructions start again one day, you will receive a new e-mail.`,
    ],
  })
}

/**
 * One attempt left before the owner's Failed unlock attempts trigger fires: failed attempts that
 * no successful unlock followed within UNLOCK_FORGIVE_MS, so most likely not the owner's own typing.
 */
export function unlockWarningEmail(p: {
  /** The owner's zone (Account.timeZone): every date below is written in it. */
  timeZone: string
  displayName: string
  triggerLabel: string
  /** Attempts counted in the trigger's window: wrong vault passphrases and failed security-key answers. */
  passphrases: number
  keys: number
  lastAt: number
  attemptsLeft: number
  threshold: number
  windowDays: number
  forgiveMinutes: number
  triggersUrl: string
}): RenderedEmail {
  const counted = [
    p.passphrases > 0 ? `${p.passphrases === 1 ? 'one wrong vault passphrase' : `${p.passphrases} wrong vault passphrases`}` : null,
    p.keys > 0 ? `${p.keys === 1 ? 'one failed security-key answer' : `${p.keys} failed security-key answers`}` : null,
  ].filter((s): s is string => s !== null)
  const left = `${p.attemptsLeft} ${p.attemptsLeft === 1 ? 'attempt' : 'attempts'}`
  return render(`Someone tried to open your vault`, {
    heading: 'Someone tried to open your vault',
    paragraphs: [
      `Hello ${p.displayName},`,
      `Your vault recorded ${counted.join(' and ')}, the last at ${emailDate(p.lastAt, p.timeZone)}. None of them was followed by a successful unlock within ${p.forgiveMinutes} minutes, so they count toward your ${p.triggerLabel} trigger.`,
      `${left} left: one more failed attempt that is not followed by a successful unlock within ${p.forgiveMinutes} minutes starts a release of your vault to your beneficiaries under your instructions (the trigger fires at ${p.threshold} failed attempts within ${p.windowDays} ${p.windowDays === 1 ? 'day' : 'days'}).`,
      'If it was not you: change your account password, check your security keys, and look at your Audit Log for anything else you do not recognise. If the trigger fires, we e-mail you at once with a link that cancels whatever is still waiting.',
      'If it was you: nothing has been released. To start the count afresh, pause the trigger on your Triggers page and activate it again.',
    ],
    details: [
      ['Last attempt', emailDate(p.lastAt, p.timeZone)],
      ['Attempts left', String(p.attemptsLeft)],
    ],
    action: { label: 'Open your triggers', url: p.triggersUrl },
    footnote: 'We never ask for your vault passphrase by e-mail.',
  })
}

/** An heir asks for more downloads and time: to each approver with a confirmed address, and to the owner while alive. */
export function renewalRequestEmail(p: { name: string; ownerName: string; heirName: string; itemCount: number; decisionUrl: string; asOwner: boolean }): RenderedEmail {
  const items = p.itemCount === 1 ? 'one item' : `${p.itemCount} items`
  return render(`${p.heirName} asks for more time with ${p.asOwner ? 'what you left them' : `${p.ownerName}'s items`}`, {
    heading: 'A beneficiary asks for more time',
    paragraphs: [
      `Hello ${p.name},`,
      p.asOwner
        ? `${p.heirName} can no longer download ${items} released to them from your vault: the downloads were used up, or the time ran out. They ask to be allowed again.`
        : `${p.heirName} can no longer download ${items} that ${p.ownerName}'s vault released to them: the downloads were used up, or the time ran out. They ask to be allowed again, and you are one of the people ${p.ownerName} trusted to decide.`,
      `Open the link to allow it (${RELEASE_LIMITS.maxDownloads} more downloads of each over the next ${RELEASE_LIMITS.assetTtlDays} days) or to refuse. The first person to allow it decides. The link is yours alone; please do not forward it.`,
    ],
    action: { label: 'Answer the request', url: p.decisionUrl },
  })
}

/** The heir hears the answer to their request. */
export function renewalOutcomeEmail(p: { fullName: string; ownerName: string; approved: boolean; itemCount: number; portalUrl: string }): RenderedEmail {
  const items = p.itemCount === 1 ? 'The item' : `The ${p.itemCount} items`
  return render(p.approved ? `You can download ${p.ownerName}'s items again` : `Your request for more time was refused`, {
    heading: p.approved ? 'Your request was allowed' : 'Your request was refused',
    paragraphs: p.approved
      ? [
          `Hello ${p.fullName},`,
          `${items} from ${p.ownerName}'s vault can be downloaded again: ${RELEASE_LIMITS.maxDownloads} times each, over the next ${RELEASE_LIMITS.assetTtlDays} days.`,
        ]
      : [`Hello ${p.fullName},`, `Your request for more time with the items from ${p.ownerName}'s vault was refused. What you already downloaded stays yours.`],
    ...(p.approved ? { action: { label: 'Open your released items', url: p.portalUrl } } : {}),
    footnote: 'The link is yours alone; please do not forward it.',
  })
}
