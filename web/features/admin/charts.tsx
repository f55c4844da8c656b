import { useId, useLayoutEffect, useRef, useState } from 'react'
import { axisTicks, niceMax, scaleValue, tickText } from './logic'

// Small hand-written SVG charts: a title, axis labels, and a data table for screen readers (the
// SVG itself is one labelled image). Each is laid out at the width it is given, in pixels, rather
// than scaled: so every chart's type is the same size, on a phone as on a wide screen.

export interface ChartPoint {
  label: string
  value: number
}

const H = 260
const M = { top: 16, right: 16, bottom: 48, left: 56 }
const PLOT_H = H - M.top - M.bottom
/** Room an x-axis label needs; labels closer than this are thinned out. */
const LABEL_SPACING = 44

/**
 * The element's width in CSS pixels, followed as it changes; null until measured. Measured before
 * the first paint, so nothing is ever laid out at a guessed width (a phone would scroll sideways).
 */
function useWidth<E extends HTMLElement>() {
  const ref = useRef<E>(null)
  const [width, setWidth] = useState<number | null>(null)
  useLayoutEffect(() => {
    const element = ref.current
    if (!element) return
    setWidth(Math.floor(element.getBoundingClientRect().width))
    const observer = new ResizeObserver(([entry]) => entry && setWidth(Math.floor(entry.contentRect.width)))
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  return [ref, width] as const
}

interface ChartProps {
  title: string
  xLabel: string
  yLabel: string
  points: ChartPoint[]
  money?: boolean
  kind: 'bar' | 'line'
  colorClass: string
  /** The line's stroke class (line charts), written out in full so Tailwind generates it. */
  strokeClass?: string
  format: (value: number) => string
}

export function Chart({ title, xLabel, yLabel, points, money = false, kind, colorClass, strokeClass = 'stroke-slate-700', format }: ChartProps) {
  const id = useId()
  const [box, measured] = useWidth<HTMLDivElement>()
  const W = Math.max(280, measured ?? 0)
  const PLOT_W = W - M.left - M.right
  const top = niceMax(Math.max(0, ...points.map((p) => p.value)))
  const ticks = axisTicks(top)
  const step = points.length > 0 ? PLOT_W / points.length : PLOT_W
  const x = (i: number) => M.left + step * i + step / 2
  const y = (v: number) => M.top + PLOT_H - scaleValue(v, top, PLOT_H)
  const total = points.reduce((sum, p) => sum + p.value, 0)
  const labelEvery = Math.max(1, Math.ceil(LABEL_SPACING / step))

  return (
    <figure className="grid gap-2 rounded-xl border border-slate-200 bg-white p-4" aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {title}
      </figcaption>
      <div ref={box} className="min-w-0 overflow-hidden" style={{ minHeight: H }}>
      {measured !== null && (
        <svg
          width={W}
          height={H}
          viewBox={`0 0 ${W} ${H}`}
          className="block"
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          data-testid="admin-chart"
        >
          <desc id={`${id}-desc`}>
            {`${yLabel} per ${xLabel.toLowerCase()}, ${points.length} weeks, total ${format(total)}. The values are in the table that follows.`}
          </desc>
          {ticks.map((t) => (
            <g key={t}>
              <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} className="stroke-slate-200" strokeWidth={1} />
              <text x={M.left - 8} y={y(t)} dy="0.32em" textAnchor="end" className="fill-slate-500 text-[11px]">
                {tickText(t, money)}
              </text>
            </g>
          ))}
          {kind === 'bar'
            ? points.map((p, i) => {
                const h = scaleValue(p.value, top, PLOT_H)
                const bw = Math.max(2, step * 0.6)
                return (
                  <rect key={p.label + i} x={x(i) - bw / 2} y={M.top + PLOT_H - h} width={bw} height={h} rx={2} className={colorClass}>
                    <title>{`${p.label}: ${format(p.value)}`}</title>
                  </rect>
                )
              })
            : points.length > 0 && (
                <>
                  <polyline
                    points={points.map((p, i) => `${x(i)},${y(p.value)}`).join(' ')}
                    fill="none"
                    strokeWidth={2.5}
                    strokeLinejoin="round"
                    className={strokeClass}
                  />
                  {points.map((p, i) => (
                    <circle key={p.label + i} cx={x(i)} cy={y(p.value)} r={4} className={colorClass}>
                      <title>{`${p.label}: ${format(p.value)}`}</title>
                    </circle>
                  ))}
                </>
            )}
        <line x1={M.left} x2={W - M.right} y1={M.top + PLOT_H} y2={M.top + PLOT_H} className="stroke-slate-400" strokeWidth={1} />
        {points.map((p, i) =>
          // Only as many labels as the width has room for.
          i % labelEvery !== 0 ? null : (
            <text key={`x${i}`} x={x(i)} y={M.top + PLOT_H + 16} textAnchor="middle" className="fill-slate-500 text-[11px]">
              {p.label}
            </text>
          ),
        )}
        <text x={M.left + PLOT_W / 2} y={H - 6} textAnchor="middle" className="fill-slate-700 text-xs font-medium">
          {xLabel}
        </text>
        <text transform={`translate(14 ${M.top + PLOT_H / 2}) rotate(-90)`} textAnchor="middle" className="fill-slate-700 text-xs font-medium">
          {yLabel}
        </text>
      </svg>
      )}
      </div>
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{xLabel}</th>
            <th scope="col">{yLabel}</th>
          </tr>
        </thead>
        <tbody>
          {points.map((p, i) => (
            <tr key={p.label + i}>
              <th scope="row">{p.label}</th>
              <td>{format(p.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
