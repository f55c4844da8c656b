const KB = 1024
const MB = KB * 1024
const GB = MB * 1024

/**
 * A size as a person reads it: the largest unit that keeps it above 1, with one decimal where
 * the number is small (3 MB is "3.0 MB", never "0.00 GB"; 500 bytes is "500 bytes").
 */
export function formatBytes(bytes: number): string {
  const n = Number.isFinite(bytes) && bytes > 0 ? bytes : 0
  if (n < KB) return n === 1 ? '1 byte' : `${Math.round(n)} bytes`
  const [value, unit] = n < MB ? [n / KB, 'KB'] : n < GB ? [n / MB, 'MB'] : [n / GB, 'GB']
  return `${value < 100 ? value.toFixed(1) : Math.round(value)} ${unit}`
}
