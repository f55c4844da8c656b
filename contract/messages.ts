// Every user-facing string that both sides, or several screens, use. Strings quoted by the spec
// are kept to the letter; the others are ours and say what happened and what to do next.

export const VALIDATION = {
  invalidEmail: 'Please enter a valid email address',
  loginPasswordMin: 'Password must be at least 6 characters',
  registerPasswordMin: 'Password must be at least 8 characters',
  displayNameMin: 'Display name must be at least 2 characters',
  passwordsDontMatch: "Passwords don't match",
  acceptTerms: 'You must accept the terms and conditions',
  required: 'Required',
  passwordTooLong: 'Password must be at most 256 characters',
} as const

export const AUTH_ERRORS = {
  emailTaken: 'An account with this email already exists. Sign in instead, or reset your password.',
  invalidCredentials: 'Invalid email or password.',
  notSignedIn: 'Please sign in to continue.',
  sessionExpired: 'Your session has ended. Please sign in again.',
  accountPaused: 'This account is paused. Contact support to restore access.',
  resetLinkInvalid: 'This reset link is invalid, has expired or was already used. Request a new one.',
  rateLimited: 'Too many attempts. Please wait a minute and try again.',
  adminOnly: 'You do not have permission to access the admin dashboard.',
} as const

/** The owner's own address, confirmed through the link sent at registration. */
export const EMAIL_CONFIRMATION = {
  /** Links sent to one owner's address an hour, at most (registration's counts). */
  perHour: 3,
  confirmed: 'Your e-mail address is confirmed.',
  alreadyConfirmed: 'Your e-mail address was already confirmed.',
  linkInvalid: 'This confirmation link is invalid. Sign in and send yourself a new one.',
  linkExpired: 'This confirmation link has expired. Sign in and send yourself a new one.',
  sent: (email: string) => `We sent a new confirmation link to ${email}.`,
  limit: 'We have sent you three confirmation links in the last hour. Please check your inbox (and spam folder), or try again later.',
  /** Why invitations wait, wherever the owner invites someone. */
  invitationsWait: 'Invitations wait until you confirm your e-mail address, so that nobody is e-mailed in your name by someone using an address that is not theirs. They go out as soon as you confirm.',
} as const

export const GENERIC_ERRORS = {
  notFound: 'Not found.',
  apiRouteNotFound: 'There is no such API route.',
  internal: 'Something went wrong on our side. Please try again.',
  invalidJson: 'The request body must be valid JSON.',
  jsonContentType: 'Send the request body as JSON (Content-Type: application/json).',
  subscriptionRequired: 'An active subscription is required.',
} as const

// The API client's fallbacks (seeds 000 §8).
export const CLIENT_ERRORS = {
  serverError: (status: number) => `Server error: ${status}`,
  httpStatusError: 'HTTP status error',
} as const

export const TOASTS = {
  loginFailed: 'Sign-in failed',
  loginFailedFallback: 'Please check your credentials and try again.',
  loginSuccess: 'Welcome back!',
  registrationFailed: 'Registration failed',
  registrationFailedFallback: 'Please try again.',
  registrationSuccess: 'Account created successfully!',
  forgotPasswordFallback: 'Failed to send reset email. Please try again.',
  networkError: 'Network error...',
  resetFailed: 'Password reset failed',
  resetSuccess: 'Password updated',
  resetSuccessBody: 'Sign in with your new password.',
  authRequired: 'Authentication Required',
  authFailed: 'Authentication Failed',
  adminRequired: 'Admin Access Required',
  signedOut: 'Signed out',
} as const

export const PAGES = {
  notFound: 'Page Not Found',
  subscriptionRequired: 'Subscription Required',
  comingSoon: 'Coming in a later release',
} as const
