// The billing screens' toasts and notices, worded as seeds 000 §8 words them: title, then text.

const PAYMENT_NOT_PROCESSED = 'Payment could not be processed'

export const SUBSCRIBE_TOASTS = {
  emailRequired: { title: 'Email Required', description: 'Please enter your email address to continue.' },
  promoBlank: { title: 'Invalid Promo Code', description: 'Please enter a valid promotion code.' },
  promoInvalid: { title: 'Invalid Promotion Code', description: 'The promotion code you entered is not valid. Please check and try again.' },
  authRequired: { title: 'Authentication Required', description: 'Please log in to access subscription features.' },
  setupFailed: { title: 'Subscription Setup Failed', fallback: 'Unable to initialize subscription. Please try again.' },
  noSecret: { title: 'Subscription Error', description: 'Unable to initialize subscription processing.' },
  success: (planName: string) => ({ title: 'Subscription Successful', description: `Welcome to ${planName}!` }),
  paymentFailed: { title: 'Subscription Failed', fallback: PAYMENT_NOT_PROCESSED },
  unexpected: { title: 'Payment Error', description: 'An unexpected error occurred. Please try again.' },
  promoApplied: 'Promotion Applied!',
  freeActivated: 'Free Subscription Activated!',
} as const

export const CHECKOUT_TOASTS = {
  setupFailed: { title: 'Payment Setup Failed', description: 'Unable to initialize payment. Please try again.' },
  initError: { title: 'Payment Error', description: 'Unable to initialize payment processing.' },
  paymentFailed: { title: 'Payment Failed', fallback: PAYMENT_NOT_PROCESSED },
  success: { title: 'Payment Successful', description: 'Thank you for your purchase!' },
} as const

export const ACCOUNT_TOASTS = {
  loadError: { title: 'Error Loading Account', description: 'Unable to load your account information.' },
  cancelled: { title: 'Subscription Cancelled', description: 'Your subscription will end at the current billing period.' },
  cancelFailed: { title: 'Cancellation Failed', fallback: 'Unable to cancel subscription. Please try again.' },
  deleted: { title: 'Account Deleted', description: 'Your account has been permanently deleted.' },
  deleteFailed: { title: 'Deletion Failed', fallback: 'Unable to delete account. Please try again.' },
} as const

/** The checkout page's one-off purchase (seeds 000 §9). */
export const CHECKOUT_PURCHASE = { amount: 29.99, description: 'Premium Plan' } as const

/** What the account-deletion dialog asks to be typed. */
export const DELETE_CONFIRMATION_WORD = 'DELETE'

/** A failure's title and text: the reason given, or the copy's fallback when there is none. */
export function failureText(copy: { title: string; fallback: string }, reason: string | undefined): { title: string; description: string } {
  return { title: copy.title, description: reason || copy.fallback }
}
