import { Link } from '@tanstack/react-router'
import {
  CONTACT_EMAIL,
  PASSWORD_RESET_TTL_SECONDS,
  PRODUCT_NAME,
  SESSION_TTL_SECONDS,
} from '../../../../contract/constants'
import { KeyPoint, LegalDocument, type LegalSection } from './legal-document'
import {
  BACKUP_PURGE_DAYS,
  BILLING_RECORD_RETENTION_YEARS,
  GOVERNING_STATE,
  MINIMUM_AGE,
  POLICY_CHANGE_NOTICE_DAYS,
  PRIVACY_REQUEST_RESPONSE_DAYS,
} from './legal-constants'

type TermsPath = '/terms' | '/public-terms'

const mail = <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
const SESSION_DAYS = Math.round(SESSION_TTL_SECONDS / 86_400)
const RESET_LINK_MINUTES = Math.round(PASSWORD_RESET_TTL_SECONDS / 60)
const RESET_LINK_LIFETIME =
  RESET_LINK_MINUTES % 60 === 0
    ? `${RESET_LINK_MINUTES / 60} hour${RESET_LINK_MINUTES === 60 ? '' : 's'}`
    : `${RESET_LINK_MINUTES} minutes`

function sections(termsPath: TermsPath): LegalSection[] {
  return [
    {
      id: 'privacy-scope',
      title: 'Who we are and what this policy covers',
      body: (
        <>
          <p>
            {PRODUCT_NAME} (“we”, “us” or “our”) is based in the State of {GOVERNING_STATE}, USA, and provides the{' '}
            {PRODUCT_NAME} digital-inheritance service (the “Service”). This Privacy Policy explains what personal
            information we collect, how we use and share it, how long we keep it, and the choices you have. It applies
            to our website, our web application and the e-mails we send.
          </p>
          <p>
            It covers account holders, and also the beneficiaries and approvers whose details an account holder gives
            us. Our <Link to={termsPath}>Terms of Service</Link> govern your use of the Service.
          </p>
        </>
      ),
    },
    {
      id: 'privacy-zero-knowledge',
      title: 'Zero knowledge, in short',
      body: (
        <KeyPoint>
          <p>
            Your vault items, and the names of the files you upload, are encrypted in your browser before they reach us,
            with a key derived from a passphrase that never leaves your device. We store only the encrypted result. We
            cannot read it, we cannot hand a readable copy to anyone, and we cannot recover it if you lose your
            passphrase.
          </p>
        </KeyPoint>
      ),
    },
    {
      id: 'privacy-what-we-store',
      title: 'Information we store',
      body: (
        <>
          <h3>Account information</h3>
          <ul>
            <li>Your e-mail address and display name.</li>
            <li>
              Your account password, in <strong>hashed</strong> form only: it is salted and processed with a one-way
              function, so we never store the password itself.
            </li>
            <li>
              Details you choose to add to your profile, such as a phone number, country, time zone and emergency
              contact, and your settings, such as notification preferences and check-in frequency.
            </li>
          </ul>
          <h3>Encrypted vault data</h3>
          <ul>
            <li>
              Your vault items and files, and their file names, <strong>encrypted in your browser</strong>. We cannot
              read them.
            </li>
            <li>
              The information we need to run your vault without reading it: the number of items, the storage they use,
              when they were created or changed, and a random value (a “salt”) used with your passphrase to derive your
              key. The salt cannot unlock anything on its own.
            </li>
          </ul>
          <h3>Beneficiaries and approvers</h3>
          <ul>
            <li>
              The names, e-mail addresses and other contact details you give us for your beneficiaries and approvers,
              their verification status, and the access policies and triggers you set up.
            </li>
          </ul>
          <h3>Identity documents submitted for verification</h3>
          <p>
            When an access policy requires a beneficiary to prove their identity, the beneficiary may upload identity
            documents, such as a government-issued ID. Documents such as a death certificate may likewise be submitted
            to activate a trigger.{' '}
            <strong>
              Unlike vault items, these documents are not encrypted with the account holder’s passphrase: they must be
              readable by the approvers who review them.
            </strong>{' '}
            We protect them with encryption at rest and access controls, make them available only to the approvers
            responsible for the review and, where strictly necessary to operate, secure or support the verification
            process, to authorised staff, and use them for no other purpose.
          </p>
          <h3>Audit log</h3>
          <p>
            A record of significant actions on your account, such as sign-ins, changes to items, beneficiaries, policies
            and triggers, verifications and releases, with the time of each. Each entry is linked to the previous one by
            a cryptographic hash, so the log cannot be altered without the change being detectable. You can view your
            audit log in the Service.
          </p>
          <h3>Billing information</h3>
          <p>
            Payments are handled by our card payment provider. We receive and keep your customer and subscription
            identifiers, your plan, the status of your subscription and your invoice history (amounts, dates and
            status). We do not receive or store your full card number or security code.
          </p>
          <h3>Sessions and security</h3>
          <p>
            For each signed-in session we keep when it started and expires and the browser’s user-agent string. We
            process your IP address to limit repeated sign-in and registration attempts and to protect the Service
            against abuse; we use it for no other purpose.
          </p>
          <h3>Messages you send us</h3>
          <p>If you write to us, we keep the correspondence so that we can help you and keep a record of our answer.</p>
        </>
      ),
    },
    {
      id: 'privacy-what-we-do-not-have',
      title: 'Information we do not have',
      body: (
        <>
          <p>By design, we never receive or store:</p>
          <ul>
            <li>your vault passphrase;</li>
            <li>the plaintext of your vault items or of your file names;</li>
            <li>the private keys and encryption keys that protect your vault; or</li>
            <li>your full payment card details.</li>
          </ul>
          <p>
            Because we do not have these, we cannot disclose them to anyone, including in response to a legal demand,
            and we cannot recover them for you.
          </p>
        </>
      ),
    },
    {
      id: 'privacy-use',
      title: 'How we use information',
      body: (
        <>
          <p>We use the information described above to:</p>
          <ul>
            <li>create and run your account and vault, and enforce the limits of your plan;</li>
            <li>
              send check-ins, operate your triggers and access policies, and release items as you have instructed;
            </li>
            <li>contact your beneficiaries and approvers when your settings require it;</li>
            <li>take payment and manage your subscription;</li>
            <li>keep the Service and your account secure, and detect and prevent fraud and abuse;</li>
            <li>answer your questions and provide support; and</li>
            <li>meet our legal obligations and enforce our Terms.</li>
          </ul>
          <p>
            <strong>
              We do not sell your personal information, we do not share it for advertising, and we do not build
              advertising profiles.
            </strong>
          </p>
        </>
      ),
    },
    {
      id: 'privacy-email',
      title: 'E-mail',
      body: (
        <>
          <p>
            E-mail is how the Service reaches people. We send account messages (such as password reset links, which
            expire after {RESET_LINK_LIFETIME}), check-ins, payment notices, security alerts, and the verification
            requests and release notifications that go to beneficiaries and approvers.
          </p>
          <p>
            Our e-mails are delivered through a third-party e-mail delivery provider, which processes the recipient’s
            address and the content of the message on our behalf. We keep outgoing messages in our delivery queue for a
            limited time so that failed deliveries can be retried and problems investigated. Our e-mails do not contain
            tracking pixels.
          </p>
          <p>
            Messages the Service depends on, such as check-ins, security alerts and billing notices, are sent while your
            account is open. You can turn off optional notifications in your settings. Beneficiaries and approvers can
            unsubscribe from our messages using the link they contain, although this may prevent items from being
            released to them.
          </p>
        </>
      ),
    },
    {
      id: 'privacy-cookies',
      title: 'Cookies and local storage',
      body: (
        <>
          <p>
            We use <strong>one cookie</strong>: a strictly necessary session cookie that keeps you signed in. It is
            HttpOnly (so scripts cannot read it), sent only over secure connections and only to our own site, and it
            expires after {SESSION_DAYS} days or when you sign out.
          </p>
          <p>
            The application also uses your browser’s storage: local storage holds your sign-in token, and session
            storage holds what is needed to keep your vault unlocked in the current tab, which is cleared when you lock
            the vault or close the tab. This data stays on your device; only the sign-in token is sent to us, to
            identify your session.
          </p>
          <p>
            <strong>We use no analytics, advertising or other tracking cookies, and no third-party scripts.</strong>{' '}
            Because we do not track you, we treat every visitor as having opted out of tracking, whatever their
            browser’s privacy signals.
          </p>
        </>
      ),
    },
    {
      id: 'privacy-sharing',
      title: 'How we share information',
      body: (
        <>
          <p>We share personal information only:</p>
          <ul>
            <li>
              <strong>with service providers</strong> who host and store our data, process card payments and deliver our
              e-mails, under contracts that allow them to use it only to provide their services to us;
            </li>
            <li>
              <strong>with your beneficiaries and approvers</strong>, as your settings direct, for example when we ask
              them to verify their identity or tell them that items have been released to them, which may include your
              name and the fact that you named them;
            </li>
            <li>
              <strong>when the law requires it</strong>, such as in response to a valid subpoena or court order. We
              review each request and resist those that are unlawful or overbroad. Vault contents remain encrypted and
              we cannot decrypt them;
            </li>
            <li>
              <strong>in a business transfer</strong>, such as a merger or acquisition, in which case this policy will
              continue to apply and we will tell you; and
            </li>
            <li>
              <strong>with your consent</strong>, or at your direction.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: 'privacy-retention',
      title: 'Data retention and deletion',
      body: (
        <>
          <p>
            We keep your information for as long as your account is open. Cancelling your subscription does not delete
            your account or your vault.
          </p>
          <p>
            <strong>When you delete your account</strong>, we delete your profile, vault items and files, beneficiary
            and approver records, access policies, triggers, identity documents submitted for your account, and audit
            log from our active systems. Residual copies in our backups are purged within {BACKUP_PURGE_DAYS} days.
            Items already released to a beneficiary before the deletion remain available to that beneficiary under the
            terms of the release.
          </p>
          <p>We keep a limited amount of information for longer only where we must:</p>
          <ul>
            <li>
              invoices and payment records, for up to {BILLING_RECORD_RETENTION_YEARS} years, as tax and accounting law
              requires; and
            </li>
            <li>
              information needed to establish, exercise or defend legal claims, or to prevent fraud, for as long as
              necessary.
            </li>
          </ul>
          <p>
            Sign-in sessions expire after {SESSION_DAYS} days, and password reset links after {RESET_LINK_LIFETIME}.
          </p>
        </>
      ),
    },
    {
      id: 'privacy-security',
      title: 'Security',
      body: (
        <>
          <p>
            Besides the client-side encryption of your vault, we protect information with encrypted connections (TLS),
            encryption at rest by our hosting provider, hashed passwords, access controls, limits on repeated sign-in
            attempts, and a tamper-evident audit log. No system is perfectly secure, but we design the Service so that
            even a breach of our servers would not expose the contents of your vault.
          </p>
          <p>
            If a security breach affects your personal information, we will notify you, and the authorities where
            required, in accordance with the {GOVERNING_STATE} Security Breach Notice Act and other applicable laws.
          </p>
        </>
      ),
    },
    {
      id: 'privacy-rights',
      title: 'Your rights and choices',
      body: (
        <>
          <p>You can:</p>
          <ul>
            <li>see and correct your account and profile information in your settings at any time;</li>
            <li>
              ask us for a copy of the personal information we hold about you (vault content can only be provided in
              encrypted form, because we cannot decrypt it);
            </li>
            <li>delete your account, and with it your vault, from Account &amp; Billing;</li>
            <li>turn off optional e-mail notifications; and</li>
            <li>
              exercise any additional rights the law of your state gives you, such as the right to know, correct or
              delete personal information.
            </li>
          </ul>
          <p>
            To make a request, write to our privacy officer at {mail}. We will verify your identity before acting on a
            request, answer within {PRIVACY_REQUEST_RESPONSE_DAYS} days, and never treat you differently for exercising
            your rights. You may use an authorised agent, who must show us your written permission.
          </p>
        </>
      ),
    },
    {
      id: 'privacy-beneficiaries',
      title: 'If you are a beneficiary or approver',
      body: (
        <p>
          We received your details from an account holder who named you. We use them only to contact you about that
          account holder’s plan: to confirm your e-mail address, to ask for or review identity verification, and to
          deliver released items. You may ask us at {mail} to stop contacting you or to delete your details; please be
          aware that this may prevent items from being released to you.
        </p>
      ),
    },
    {
      id: 'privacy-deceased',
      title: 'When an account holder dies',
      body: (
        <p>
          We continue to follow the account holder’s triggers and access policies. We cannot give executors, relatives
          or courts access to encrypted vault contents other than through the releases the account holder configured,
          because we cannot decrypt them. A personal representative may ask us to close the account on providing proof
          of their authority.
        </p>
      ),
    },
    {
      id: 'privacy-children',
      title: 'Children',
      body: (
        <p>
          The Service is for adults aged {MINIMUM_AGE} and over, and we do not knowingly collect personal information
          from children to open accounts. If an account holder names a minor as a beneficiary, we use the contact
          details provided only for the purposes described in this policy. If you believe a child has given us personal
          information, please contact us and we will delete it.
        </p>
      ),
    },
    {
      id: 'privacy-international',
      title: 'Where we process information',
      body: (
        <p>
          We are based in the United States. Your information is stored and processed in the United States and in other
          countries where our service providers operate. Wherever it is processed, we protect it as this policy
          describes.
        </p>
      ),
    },
    {
      id: 'privacy-changes',
      title: 'Changes to this policy',
      body: (
        <p>
          We may update this policy. If a change is material, we will tell you by e-mail or in the Service at least{' '}
          {POLICY_CHANGE_NOTICE_DAYS} days before it takes effect. The “Last updated” date above shows when the policy
          last changed.
        </p>
      ),
    },
    {
      id: 'privacy-contact',
      title: 'Contact our privacy officer',
      body: (
        <p>
          For any question or request about your personal information, contact our privacy officer at {mail}, or write
          to the Privacy Officer, {PRODUCT_NAME}, {GOVERNING_STATE}, USA. We handle personal information in accordance
          with the {GOVERNING_STATE} laws on data protection and security breaches.
        </p>
      ),
    },
  ]
}

/**
 * The Privacy Policy (seeds 000 §1, §2), shown at /privacy and /public-privacy. `termsPath` keeps
 * the cross-link in the same family of pages as the one being read.
 */
export function PrivacyContent({ termsPath = '/public-terms' }: { termsPath?: TermsPath }) {
  return (
    <LegalDocument
      title="Privacy Policy"
      intro={
        <p>
          Legacy Vault exists to keep your most private information safe until the right people need it. This policy
          explains, plainly, what we store, what we cannot see, and what we do with the little we know about you.
        </p>
      }
      sections={sections(termsPath)}
    />
  )
}
