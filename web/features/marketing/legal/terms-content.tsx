import { Link } from '@tanstack/react-router'
import {
  CONTACT_EMAIL,
  FREE_TRIAL_DAYS,
  PAYMENT_GRACE_DAYS,
  PRODUCT_NAME,
} from '../../../../contract/constants'
import { KeyPoint, LegalDocument, type LegalSection } from './legal-document'
import {
  FEE_CHANGE_NOTICE_DAYS,
  GOVERNING_STATE,
  INFORMAL_RESOLUTION_DAYS,
  LIABILITY_CAP_MONTHS,
  MINIMUM_AGE,
  POLICY_CHANGE_NOTICE_DAYS,
} from './legal-constants'

const mail = <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>

function sections(privacyPath: PrivacyPath): LegalSection[] {
  return [
    {
      id: 'terms-acceptance',
      title: 'Acceptance of these Terms',
      body: (
        <>
          <p>
            By creating an account, subscribing to a plan or otherwise using the Service, you agree to be bound by these
            Terms and by our <Link to={privacyPath}>Privacy Policy</Link>, which explains how we handle personal
            information. If you do not agree, do not use the Service.
          </p>
          <p>
            If you use the Service on behalf of a business or other organisation, you confirm that you are authorised to
            accept these Terms on its behalf, and “you” includes that organisation.
          </p>
        </>
      ),
    },
    {
      id: 'terms-eligibility',
      title: 'Eligibility',
      body: (
        <>
          <p>
            <strong>You must be at least {MINIMUM_AGE} years old to create an account or use the Service.</strong> By
            using the Service you confirm that you are {MINIMUM_AGE} or older, that you have the legal capacity to enter
            into a binding contract, and that you are not barred from using the Service under the laws of the United
            States or any other applicable jurisdiction.
          </p>
          <p>
            The people you name as beneficiaries or approvers do not need an account. If you wish to leave items to a
            minor, we recommend that you name a parent, guardian or trustee to receive them on the minor’s behalf.
          </p>
        </>
      ),
    },
    {
      id: 'terms-service',
      title: 'The Service',
      body: (
        <>
          <p>
            {PRODUCT_NAME} is a digital-inheritance service. It lets you keep documents, passwords, photos, videos and
            other information in a vault that is encrypted on your own device; name beneficiaries and approvers; set
            access policies that decide who may receive which items; and set triggers that release items to your
            beneficiaries, such as missed inactivity check-ins, a manual release, a verified death certificate or a
            scheduled date. A tamper-evident audit trail records activity on your account. The features available to you
            depend on your plan.
          </p>
          <KeyPoint>
            <p>
              <strong>
                The Service is not a will, trust, power of attorney or any other legal instrument, and it does not
                replace one.
              </strong>{' '}
              Releasing an item through the Service does not transfer legal ownership of any asset, and nothing in the
              Service is legal, tax or financial advice. Please consult a qualified estate planning attorney about your
              estate plan.
            </p>
          </KeyPoint>
        </>
      ),
    },
    {
      id: 'terms-account',
      title: 'Your account',
      body: (
        <>
          <p>You agree to:</p>
          <ul>
            <li>give accurate information when you register and keep it up to date;</li>
            <li>
              keep the e-mail address on your account working and able to receive our messages, because check-ins,
              payment notices and security alerts are sent to it;
            </li>
            <li>keep your account password, vault passphrase and any security keys confidential and secure; and</li>
            <li>tell us promptly at {mail} if you believe your account has been accessed without your permission.</li>
          </ul>
          <p>
            You are responsible for all activity that takes place under your account. Each account is for one person;
            you may not share it or create an account in someone else’s name.
          </p>
        </>
      ),
    },
    {
      id: 'terms-encryption',
      title: 'Encryption and your passphrase',
      body: (
        <>
          <p>
            Your vault items, and the names of files you upload, are encrypted <strong>client side</strong>, in your
            browser, with <strong>AES-256</strong> before they are sent to us, using keys derived from a vault
            passphrase that you choose. Your passphrase is never sent to or stored on our servers. This zero-knowledge
            design means that:
          </p>
          <ol>
            <li>we cannot read, scan or index the contents of your vault;</li>
            <li>
              <strong>
                we cannot recover your data if you lose or forget both your passphrase and your recovery code, and no
                one at {PRODUCT_NAME} can reset either for you
              </strong>
              ; and
            </li>
            <li>
              resetting your account password restores access to your account, but does not decrypt anything encrypted
              with your passphrase.
            </li>
          </ol>
          <p>
            You are solely responsible for keeping your passphrase safe and for the security of the devices and browsers
            you use with the Service. Encryption cannot protect information on a device that is itself compromised. We
            are not liable for any loss arising from a lost, forgotten or disclosed passphrase.
          </p>
        </>
      ),
    },
    {
      id: 'terms-beneficiaries',
      title: 'Beneficiaries, approvers and releases',
      body: (
        <>
          <p>
            You decide who your beneficiaries and approvers are, which items each beneficiary may receive, and under
            what conditions. You are responsible for the accuracy of the contact details you give us and for having the
            right to share them with us. We will contact these people as your settings require, for example to confirm
            their e-mail address, to ask them to verify their identity, or to tell them that items have been released to
            them.
          </p>
          <p>
            Where your access policy requires identity verification, a beneficiary may be asked to upload identity
            documents, which are reviewed by the approvers you name. Approvers act on your behalf, not ours. We do not
            guarantee any approver’s decision, and we do not independently determine anyone’s legal entitlement to your
            property.
          </p>
          <p>
            Items are released according to the settings in force at the time a trigger activates. Once an item has been
            released and made available to a beneficiary, it cannot be recalled, and we are not responsible for what a
            beneficiary does with it.
          </p>
        </>
      ),
    },
    {
      id: 'terms-triggers',
      title: 'Check-ins and triggers',
      body: (
        <>
          <p>
            If you turn on inactivity monitoring, we will e-mail you check-ins at the frequency you set on your inactivity
            trigger. If you do not respond within the grace period you set on it (each check-in e-mail names the
            deadline), your inactivity triggers activate automatically and the items you have assigned are released
            according to your access policies.
          </p>
          <p>
            It is your responsibility to respond to check-ins, to keep your e-mail address deliverable (including making
            sure our messages are not filtered as spam), and to review your triggers when your circumstances change. We
            are not liable for a release that takes place because a check-in went unanswered, or for a delay or failure
            to release caused by circumstances beyond our reasonable control, such as a failure of e-mail delivery
            outside our systems.
          </p>
          <p>
            Triggers that depend on a death certificate or similar document rely on evidence supplied by other people.
            We take reasonable steps to check such evidence but cannot guarantee its authenticity.
          </p>
        </>
      ),
    },
    {
      id: 'terms-billing',
      title: 'Subscriptions, fees and free trials',
      body: (
        <>
          <p>
            Paid plans are billed monthly, in advance, in US dollars, at the prices shown on our{' '}
            <Link to="/pricing">pricing page</Link> when you subscribe. Payments are processed by our third-party card
            payment provider. By subscribing, you authorise us and our payment provider to charge your payment method at
            the start of each billing period until you cancel. Prices do not include taxes, which are added where
            required.
          </p>
          <h3>Changes to fees</h3>
          <p>
            We may change our fees from time to time.{' '}
            <strong>
              We will give you at least {FEE_CHANGE_NOTICE_DAYS} days’ notice by e-mail before a fee change applies to
              your subscription.
            </strong>{' '}
            The new fee applies from the first billing period that begins after the notice period ends. If you do not
            accept the change, you may cancel before it takes effect.
          </p>
          <h3>Promotions and free trials</h3>
          <p>
            We may offer promotional codes. Where a promotion grants a free trial, the trial lasts {FREE_TRIAL_DAYS}{' '}
            days unless the promotion states otherwise. A valid payment method is required to start a trial; it is saved
            but not charged during the trial, and your subscription is charged at the then-current price when the trial
            ends unless you cancel before the end of the trial. Promotions have no cash value, cannot be combined unless
            we say so, and may be withdrawn at any time before they are redeemed.
          </p>
          <h3>Refunds</h3>
          <p>
            Except where required by law, fees are non-refundable and we do not give refunds or credits for partially
            used billing periods. We may, at our discretion, issue a refund in individual cases; doing so does not
            oblige us to do so again.
          </p>
        </>
      ),
    },
    {
      id: 'terms-payment-issues',
      title: 'Payment issues and the grace period',
      body: (
        <>
          <p>
            If a payment fails, for example because your card is declined or has expired, we will notify you by e-mail
            and a <strong>grace period of {PAYMENT_GRACE_DAYS} days</strong> begins. During the grace period:
          </p>
          <ul>
            <li>everything in your vault remains open to you, though new uploads wait until payment is restored;</li>
            <li>your triggers continue to monitor, but do not activate; and</li>
            <li>your beneficiary access policies remain in effect.</li>
          </ul>
          <p>
            If the payment issue has not been resolved when the grace period ends, your triggers resume and may activate
            on inactivity according to your settings, and your vault is closed to you until payment is restored. You can
            still sign in, pay from Account &amp; Billing, pause your triggers, cancel a release and check in.
          </p>
          <KeyPoint>
            <p>
              You acknowledge that this is intentional. Non-payment may be a sign that an account holder has died or
              become incapacitated, and the Service is designed so that your plan can still be carried out in those
              circumstances.
            </p>
          </KeyPoint>
        </>
      ),
    },
    {
      id: 'terms-cancellation',
      title: 'Cancellation and termination',
      body: (
        <>
          <p>
            You may cancel your subscription at any time from Account &amp; Billing. Cancellation takes effect at the
            end of the current billing period; you keep access until then and will not be charged again.
          </p>
          <p>
            You may also delete your account at any time. <strong>Deleting your account is permanent:</strong> your
            vault and its contents are deleted and can no longer be released to your beneficiaries. Items already
            released before deletion are not affected.
          </p>
          <p>
            We may suspend or terminate your access to the Service if you materially breach these Terms, if payment
            remains unresolved after the grace period and further notice to you, if we are required to do so by law, or
            if your use poses a risk to the Service or to others. Where reasonably possible we will tell you in advance
            and give you an opportunity to put things right. Sections of these Terms that by their nature should survive
            termination, including those on disclaimers, limitation of liability, indemnification and governing law,
            survive it.
          </p>
        </>
      ),
    },
    {
      id: 'terms-acceptable-use',
      title: 'Acceptable use',
      body: (
        <>
          <p>You must not use the Service to:</p>
          <ul>
            <li>store or share anything unlawful, including material that infringes the rights of others;</li>
            <li>upload malware or anything designed to disrupt or damage systems;</li>
            <li>
              attempt to gain unauthorised access to the Service, other accounts or our systems, or to circumvent plan
              limits or security measures;
            </li>
            <li>
              harass, defraud or impersonate anyone, or name beneficiaries or approvers without a legitimate purpose; or
            </li>
            <li>transfer information in breach of a court order or of any law that applies to you.</li>
          </ul>
          <p>
            Because your vault is encrypted, we cannot monitor its contents, but we may act on credible reports and on
            lawful requests. If you believe you have found a security vulnerability, please report it to {mail} and do
            not access data that is not yours.
          </p>
        </>
      ),
    },
    {
      id: 'terms-content',
      title: 'Your content and our property',
      body: (
        <>
          <p>
            You keep all rights in the content you store. You grant us only the limited permission needed to host,
            store, copy and transmit your encrypted content in order to provide the Service to you and to the
            beneficiaries you choose. You confirm that you have the rights needed to store and share that content.
          </p>
          <p>
            The Service, its software, design and trademarks belong to {PRODUCT_NAME} and its licensors. We grant you a
            limited, non-exclusive, non-transferable and revocable licence to use the Service in accordance with these
            Terms. You may not copy, modify or reverse engineer the Service except as the law expressly allows.
          </p>
        </>
      ),
    },
    {
      id: 'terms-third-parties',
      title: 'Third-party services',
      body: (
        <p>
          We rely on third parties for hosting, card payment processing and e-mail delivery. Your use of the payment
          form is also subject to our payment provider’s terms. We are not responsible for services we do not control,
          although we choose our providers carefully and require them to protect your information.
        </p>
      ),
    },
    {
      id: 'terms-availability',
      title: 'Availability and changes to the Service',
      body: (
        <p>
          We work to keep the Service available and reliable, but we do not guarantee that it will be uninterrupted or
          error-free; planned maintenance and events outside our control may affect it. We may improve, change or remove
          features. If we make a change that materially reduces the core functionality of your paid plan, we will tell
          you in advance and you may cancel. If we ever decide to discontinue the Service, we will give you reasonable
          advance notice so that you can make other arrangements for your vault.
        </p>
      ),
    },
    {
      id: 'terms-disclaimers',
      title: 'Disclaimers',
      body: (
        <p>
          To the fullest extent permitted by law, the Service is provided “as is” and “as available”, without warranties
          of any kind, whether express or implied, including implied warranties of merchantability, fitness for a
          particular purpose and non-infringement. We do not warrant that any item will reach a beneficiary, because
          delivery depends on factors outside our control, including the accuracy of the details you provide, the
          actions of approvers and the delivery of e-mail.
        </p>
      ),
    },
    {
      id: 'terms-liability',
      title: 'Limitation of liability',
      body: (
        <>
          <p>
            To the fullest extent permitted by law, {PRODUCT_NAME} will not be liable for any indirect, incidental,
            special, consequential, exemplary or punitive damages, or for any loss of profits, revenue, data or
            goodwill, arising out of or relating to these Terms or the Service, even if we have been advised of the
            possibility of such damages.
          </p>
          <p>
            <strong>
              Our total liability for all claims arising out of or relating to these Terms or the Service is limited to
              the fees you paid us for the Service in the {LIABILITY_CAP_MONTHS} months immediately before the event
              giving rise to the claim.
            </strong>
          </p>
          <p>
            Some jurisdictions do not allow certain limitations of liability. In those jurisdictions, our liability is
            limited to the smallest extent the law permits. Nothing in these Terms limits liability that cannot be
            limited by law, such as liability for fraud.
          </p>
        </>
      ),
    },
    {
      id: 'terms-indemnity',
      title: 'Indemnification',
      body: (
        <p>
          You agree to indemnify and hold harmless {PRODUCT_NAME} and its officers, employees and agents from any
          claims, losses and expenses, including reasonable attorneys’ fees, arising from your breach of these Terms,
          your content, or your misuse of the Service, including claims by beneficiaries or other third parties relating
          to your instructions.
        </p>
      ),
    },
    {
      id: 'terms-governing-law',
      title: 'Governing law and disputes',
      body: (
        <>
          <p>
            <strong>
              These Terms, and any dispute arising out of or relating to them or to the Service, are governed by the
              laws of the State of {GOVERNING_STATE}, USA
            </strong>
            , without regard to its conflict-of-laws rules. Subject to applicable law, the state and federal courts
            located in {GOVERNING_STATE} have exclusive jurisdiction, and you and we consent to their personal
            jurisdiction.
          </p>
          <p>
            Before starting proceedings, please contact us at {mail} and give us {INFORMAL_RESOLUTION_DAYS} days to try
            to resolve the matter informally. Nothing in this section prevents either party from seeking urgent
            injunctive relief.
          </p>
        </>
      ),
    },
    {
      id: 'terms-changes',
      title: 'Changes to these Terms',
      body: (
        <p>
          We may update these Terms from time to time. If a change is material, we will notify you by e-mail or in the
          Service at least {POLICY_CHANGE_NOTICE_DAYS} days before it takes effect, unless the change is required by law
          sooner. The “Last updated” date above shows when these Terms last changed. By continuing to use the Service
          after a change takes effect, you accept the updated Terms; if you do not accept them, you may cancel your
          subscription and delete your account.
        </p>
      ),
    },
    {
      id: 'terms-general',
      title: 'General',
      body: (
        <ul>
          <li>
            <strong>Entire agreement.</strong> These Terms and our Privacy Policy are the entire agreement between you
            and us about the Service.
          </li>
          <li>
            <strong>Severability.</strong> If any provision is found unenforceable, the rest of these Terms remain in
            effect.
          </li>
          <li>
            <strong>No waiver.</strong> Failing to enforce a provision is not a waiver of our right to do so later.
          </li>
          <li>
            <strong>Assignment.</strong> You may not transfer these Terms without our consent. We may transfer them as
            part of a merger, acquisition or sale of assets, and will tell you if we do.
          </li>
          <li>
            <strong>No third-party beneficiaries.</strong> The beneficiaries and approvers you name are not parties to,
            and have no rights under, these Terms.
          </li>
          <li>
            <strong>Notices.</strong> We send notices to the e-mail address on your account. You can send notices to us
            at {mail}.
          </li>
          <li>
            <strong>Force majeure.</strong> We are not responsible for delays or failures caused by events beyond our
            reasonable control.
          </li>
        </ul>
      ),
    },
    {
      id: 'terms-contact',
      title: 'Contact us',
      body: (
        <p>
          Questions about these Terms are welcome. Write to {PRODUCT_NAME}, {GOVERNING_STATE}, USA, at {mail}.
        </p>
      ),
    },
  ]
}

type PrivacyPath = '/privacy' | '/public-privacy'

/**
 * The Terms of Service (seeds 000 §2, §6, §9), shown at /terms and /public-terms. `privacyPath`
 * keeps the cross-link in the same family of pages as the one being read.
 */
export function TermsContent({ privacyPath = '/public-privacy' }: { privacyPath?: PrivacyPath }) {
  return (
    <LegalDocument
      title="Terms of Service"
      intro={
        <>
          <p>
            These Terms of Service (“Terms”) govern your use of the {PRODUCT_NAME} website, applications and services
            (the “Service”), provided by {PRODUCT_NAME} (“{PRODUCT_NAME}”, “we”, “us” or “our”), based in the State of{' '}
            {GOVERNING_STATE}, USA.
          </p>
          <p>
            Please read them carefully. They explain what we can and cannot do with a zero-knowledge vault, how billing
            and payment issues affect your triggers, and they limit our liability and choose {GOVERNING_STATE} law.
          </p>
        </>
      }
      sections={sections(privacyPath)}
    />
  )
}
