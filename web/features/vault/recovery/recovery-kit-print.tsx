import { createPortal } from 'react-dom'
import { recoveryKitContent, type RecoveryKit } from './recovery-kit'

const PRINT_ROOT_ID = 'recovery-kit-print'

/**
 * The Recovery Kit as a printable page: invisible on screen; when printing, everything else is
 * hidden, so window.print prints only the kit (as the Access Kit's print view does).
 */
export function RecoveryKitPrintView({ kit }: { kit: RecoveryKit }) {
  const c = recoveryKitContent(kit)
  return createPortal(
    <div id={PRINT_ROOT_ID} className="hidden bg-white p-8 text-slate-900 print:block" data-testid="recovery-kit-print">
      <style media="print">{`body > *:not(#${PRINT_ROOT_ID}) { display: none !important; } @page { margin: 18mm; }`}</style>
      <h1 className="text-2xl font-bold">{c.title}</h1>
      <p className="mt-4 border-2 border-slate-900 p-3 text-sm font-semibold">{c.warning}</p>
      <dl className="mt-6 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
        {c.facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-semibold">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <section className="mt-6 break-inside-avoid">
        <h2 className="text-lg font-semibold">{c.codeHeading}</h2>
        <p className="mt-2 border border-slate-400 p-4 text-center font-mono text-xl tracking-wider">{kit.code}</p>
      </section>
      <h2 className="mt-6 text-lg font-semibold">What to do</h2>
      <ol className="mt-2 list-decimal space-y-2 pl-6 text-sm leading-relaxed">
        {c.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </div>,
    document.body,
  )
}
