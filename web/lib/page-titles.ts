import { PAGES } from '../../contract/messages'
import type { FileRoutesByFullPath } from '@/route-tree.gen'

const SITE = 'Legacy Vault'

/** Every page's own browser title: the type makes a new route name its title here. */
const PAGE_TITLES: Record<keyof FileRoutesByFullPath, string> = {
  '/': 'Secure Your Digital Legacy',
  '/access-refuse': 'Refuse Access',
  '/access-request': 'Access Request',
  '/account': 'Account & Billing',
  '/admin': 'Admin Dashboard',
  '/approve-release': 'Approve Release',
  '/approve-renewal': 'Approve Renewal',
  '/beneficiary-opt-in': 'Notification Preferences',
  '/beneficiary-portal': 'Beneficiary Portal',
  '/cancel-release': 'Cancel Release',
  '/check-in': 'Check In',
  '/checkout': 'Checkout',
  '/confirm-death': 'Confirm Death',
  '/confirm-email': 'Confirm Email',
  '/email-preview': 'Email Preview',
  '/forgot-password': 'Forgot Password',
  '/how-it-works': 'How It Works',
  '/login': 'Sign In',
  '/not-me': 'Not Me',
  '/payment-success': 'Payment Successful',
  '/pricing': 'Pricing',
  '/privacy': 'Privacy Policy',
  '/public-privacy': 'Privacy Policy',
  '/public-terms': 'Terms of Service',
  '/register': 'Create Account',
  '/reset-password': 'Reset Password',
  '/review-identity': 'Review Identity',
  '/subscribe': 'Subscribe',
  '/terms': 'Terms of Service',
  '/unsubscribe': 'Unsubscribe',
  '/verify-approver': 'Approver Verification',
  '/verify-backup-email': 'Verify Backup Email',
  '/verify-beneficiary': 'Beneficiary Verification',
  '/audit': 'Audit Log',
  '/beneficiaries': 'Beneficiaries',
  '/dashboard': 'Dashboard',
  '/identity-verification': 'Identity Verification',
  '/profile': 'Profile',
  '/protocols': 'Policies',
  '/settings': 'Settings',
  '/trigger-monitor': 'Trigger Monitor',
  '/triggers': 'Triggers',
  '/vault': 'Vault',
  '/dev/mailbox': 'Mailbox',
}

/** The browser title for a route, "Vault · Legacy Vault"; an unknown route is the not-found page. */
export function pageTitle(fullPath: string | undefined): string {
  const own = fullPath === undefined ? undefined : PAGE_TITLES[fullPath as keyof FileRoutesByFullPath]
  return `${own ?? PAGES.notFound} · ${SITE}`
}
