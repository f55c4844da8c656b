import { Link } from '@tanstack/react-router'
import { Logo } from '@/components/brand/logo'
import { CONTACT_EMAIL, SUPPORT_EMAIL } from '../../../contract/constants'
import { copyrightText, HEIR_ENTRY } from './footer-copy'

/** The public footer (seeds 000 §2, Landing page). */
export function PublicFooter() {
  return (
    <footer className="border-t border-slate-800 bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 sm:px-6 md:grid-cols-4">
        <div className="md:col-span-2">
          <Logo inverted />
          <p className="mt-4 max-w-md text-sm leading-relaxed">
            Zero-knowledge digital inheritance. Your vault is encrypted in your browser; we cannot read it, and we cannot
            recover it if your passphrase is lost.
          </p>
          <p className="mt-4 text-sm">
            Based in Vermont, USA. We handle personal data under the Vermont data protection and security breach laws.
            Privacy officer: <a className="underline hover:text-white" href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
          </p>
        </div>
        <nav aria-label="Product">
          <h2 className="text-sm font-semibold text-white">Product</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Link to="/pricing" className="hover:text-white">Pricing</Link>
            </li>
            <li>
              <Link to="/pricing" hash="faq" className="hover:text-white">FAQs</Link>
            </li>
            <li>
              <a href={`mailto:${SUPPORT_EMAIL}`} className="hover:text-white">Contact Us</a>
            </li>
            <li>
              <Link to={HEIR_ENTRY.to} className="hover:text-white">{HEIR_ENTRY.label}</Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Legal">
          <h2 className="text-sm font-semibold text-white">Legal</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Link to="/public-privacy" className="hover:text-white">Privacy Policy</Link>
            </li>
            <li>
              <Link to="/public-terms" className="hover:text-white">Terms of Service</Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-6xl px-4 py-6 text-xs text-slate-400 sm:px-6">
          {copyrightText()} U.S.A.
        </p>
      </div>
    </footer>
  )
}
