import { createPortal } from 'react-dom'
import { KIT_VAULT_FINGERPRINT_LABEL } from '../../../contract/releases'
import { accessKitContent, type AccessKit } from './access-kit'

const PRINT_ROOT_ID = 'access-kit-print'

/**
 * The kit as a printable page. It is invisible on screen; when printing, everything else on the
 * page is hidden, so the browser's print command (window.print) prints only the kit. No script
 * and no new window: nothing the Content Security Policy would have to allow.
 */
export function AccessKitPrintView({ kit }: { kit: AccessKit }) {
  const c = accessKitContent(kit)
  return createPortal(
    <div id={PRINT_ROOT_ID} className="hidden bg-white p-8 text-slate-900 print:block" data-testid="access-kit-print">
      <style media="print">{`body > *:not(#${PRINT_ROOT_ID}) { display: none !important; } @page { margin: 18mm; }`}</style>
      <h1 className="text-2xl font-bold">{c.title}</h1>
      <p className="mt-4 border-2 border-slate-900 p-3 text-sm font-semibold">{c.warning}</p>
      <dl className="mt-6 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
        {c.facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-semibold">{label}</dt>
            <dd className={label === 'Key fingerprint' || label === KIT_VAULT_FINGERPRINT_LABEL ? 'font-mono' : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
      <h2 className="mt-6 text-lg font-semibold">What this is</h2>
      {c.about.map((p) => (
        <p key={p} className="mt-2 text-sm leading-relaxed">
          {p}
        </p>
      ))}
      <h2 className="mt-6 text-lg font-semibold">What to do</h2>
      <ol className="mt-2 list-decimal space-y-2 pl-6 text-sm leading-relaxed">
        {c.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <section className="mt-6 break-inside-avoid">
        <h2 className="text-lg font-semibold">{c.keyHeading}</h2>
        <p className="mt-1 text-sm">{c.keyIntro}</p>
        <pre className="mt-2 whitespace-pre-wrap break-all border border-slate-400 p-3 font-mono text-[10pt] leading-snug">{`${c.vaultLine}\n${c.pem}`}</pre>
      </section>
    </div>,
    document.body,
  )
}
