import { Hono } from 'hono'
import { openApiDocument } from '../openapi/document'
import { DOCS_PAGE, DOCS_SCRIPT } from '../openapi/docs-page'
import type { AppEnv } from '../types'
import { isDevelopment } from './dev'

/**
 * GET /api/openapi.json, the OpenAPI document of `app` as mounted (the local tools only where they
 * exist), made once per isolate; GET /api/docs, the reference page that shows it, and its script.
 */
export function apiReferenceRoutes(app: Hono<AppEnv>) {
  const documents = new Map<boolean, string>()
  return new Hono<AppEnv>()
    .get('/openapi.json', (c) => {
      const development = isDevelopment(c.env)
      let text = documents.get(development)
      if (text === undefined) {
        text = JSON.stringify(openApiDocument(app, { development }))
        documents.set(development, text)
      }
      return c.body(text, 200, { 'content-type': 'application/json; charset=utf-8' })
    })
    .get('/docs', (c) => c.html(DOCS_PAGE))
    .get('/docs/app.js', (c) => c.body(DOCS_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8' }))
}
