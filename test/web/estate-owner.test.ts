import { describe, expect, it } from 'vitest'
import { ESTATE_FILES, ESTATE_MESSAGES, ESTATE_PAGE_TITLE } from '../../contract/estate-bundle'
import { offlinePage } from '@/features/export/estate-owner'

const answering = (status: number, body: string) => {
  const asked: string[] = []
  const fetchFn = (async (url: string) => {
    asked.push(url)
    return new Response(body, { status, headers: { 'content-type': 'text/html' } })
  }) as unknown as typeof fetch
  return { fetchFn, asked }
}

const PAGE = `<!doctype html><html><head><title>${ESTATE_PAGE_TITLE}</title></head><body></body></html>`
const APP_INDEX = '<!doctype html><html><head><title>Legacy Vault</title></head><body><div id="root"></div></body></html>'

describe('the estate bundle’s offline page', () => {
  it('is made only with the real offline page that opens it; any other answer stops the export', async () => {
    const real = answering(200, PAGE)
    expect(await offlinePage(undefined, real.fetchFn)).toBe(PAGE)
    expect(real.asked).toEqual([`/${ESTATE_FILES.page}`])
    // A dev server answers the app's own index.html, with 200: not a page that opens the bundle.
    await expect(offlinePage(undefined, answering(200, APP_INDEX).fetchFn)).rejects.toThrow(ESTATE_MESSAGES.failed)
    // Missing, even with the right title in an error page.
    await expect(offlinePage(undefined, answering(404, PAGE).fetchFn)).rejects.toThrow(ESTATE_MESSAGES.failed)
  })
})
