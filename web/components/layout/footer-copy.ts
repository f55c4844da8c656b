import { PRODUCT_NAME } from '../../../contract/constants'

// The footers' words, one place for both (the public site's and the app's).

/** This year's copyright, never a year baked into the page. */
export const copyrightText = (now: Date = new Date()) => `© ${now.getFullYear()} ${PRODUCT_NAME}. All rights reserved.`

/** Where an heir starts: the portal's home asks for a new link by e-mail (not only the Access Kit's printed address). */
export const HEIR_ENTRY = { label: 'Were you left something?', to: '/beneficiary-portal' } as const
