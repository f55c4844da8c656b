import { emailDate, emailDay } from './dates'
import { render, type RenderedEmail } from './templates'

// Access on request (contract/access-requests.ts). Like every release message: people and dates,
// never items.

/** To the owner's own addresses: someone asked; Approve now (signed in) and Refuse (one click). */
export function accessRequestedOwnerEmail(p: {
  displayName: string
  requesterName: string
  policyName: string
  opensAt: number
  approveUrl: string
  refuseUrl: string
  /** The owner's zone (Account.timeZone). */
  timeZone: string
}): RenderedEmail {
  return render(`${p.requesterName} asked for access to your vault`, {
    heading: 'Someone asked for access',
    paragraphs: [
      `Hello ${p.displayName},`,
      `${p.requesterName} asked for the items of your policy "${p.policyName}".`,
      `Unless you refuse, they will be released on ${emailDate(p.opensAt, p.timeZone)}. Signing in or checking in does not stop this; only refusing does.`,
      'If you do not want this, refuse it now with one click. To let them have it at once, approve it in the app.',
    ],
    action: { label: 'Refuse', url: p.refuseUrl },
    links: [{ label: 'Approve now', url: p.approveUrl }],
    footnote: 'If you are happy for them to have access on that date, you need do nothing.',
  })
}

/** To the requester, at once. */
export function accessRequestedConfirmEmail(p: { name: string; ownerName: string; opensAt: number }): RenderedEmail {
  return render(`Your request for access to ${p.ownerName}'s vault`, {
    heading: 'Your request was sent',
    paragraphs: [
      `Hello ${p.name},`,
      `We told ${p.ownerName} that you asked for access. Unless they refuse, it opens on ${emailDay(p.opensAt)}, and we will e-mail you then.`,
    ],
  })
}

/** To the requester, when the owner refused. */
export function accessRefusedEmail(p: { name: string; ownerName: string; askAgainFrom: number }): RenderedEmail {
  return render(`${p.ownerName} refused your request for access`, {
    heading: 'Your request was refused',
    paragraphs: [
      `Hello ${p.name},`,
      `${p.ownerName} refused your request for access. Nothing will be released to you because of it.`,
      `You can ask again from ${emailDay(p.askAgainFrom)}.`,
    ],
  })
}

/** To an approver who asked for a link by address: where they can ask for access. */
export function accessRequestLinkEmail(p: { name: string; ownerName: string; requestUrl: string }): RenderedEmail {
  return render(`Asking for access to ${p.ownerName}'s vault`, {
    heading: 'Ask for access',
    paragraphs: [
      `Hello ${p.name},`,
      `${p.ownerName} lets you ask for access to some of their vault. Open the link to see what you can ask for. ${p.ownerName} is told at once and can refuse.`,
      'The link is yours alone; please do not forward it.',
    ],
    action: { label: 'Ask for access', url: p.requestUrl },
  })
}
