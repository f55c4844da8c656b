// The one table `npm run bench` prints (measurement, figure, reference, ratio), and its JSON form.

function fmt(value, unit) {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a'
  const abs = Math.abs(value)
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3
  return `${value.toFixed(digits)} ${unit}`
}

/** Fills in each row's ratio (figure / reference, same unit) and the printable cells. */
export function finishRows(rows) {
  return rows.map((r) => {
    const ref = r.reference ?? null
    const ratio = ref && Number.isFinite(ref.value) && ref.value !== 0 && Number.isFinite(r.value) ? r.value / ref.value : null
    return {
      ...r,
      ratio,
      cells: [
        r.measurement,
        fmt(r.value, r.unit) + (r.detail ? ` (${r.detail})` : ''),
        ref ? `${fmt(ref.value, ref.unit ?? r.unit)} ${ref.label}` : '',
        ratio === null ? '' : `${ratio >= 100 ? ratio.toFixed(0) : ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}×`,
      ],
    }
  })
}

export function table(rows) {
  const header = ['measurement', 'figure', 'reference', 'ratio']
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r.cells[i].length)))
  const line = (cells) => `| ${cells.map((c, i) => (i === 3 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`
  return [line(header), `|${widths.map((w, i) => (i === 3 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`, ...rows.map((r) => line(r.cells))].join('\n')
}

export function jsonReport(meta, rows) {
  return {
    ...meta,
    rows: rows.map(({ cells: _cells, ...r }) => ({
      ...r,
      reference: r.reference ? { ...r.reference, unit: r.reference.unit ?? r.unit } : null,
    })),
  }
}
