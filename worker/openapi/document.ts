import type { Hono } from 'hono'
import { z } from 'zod'
import { AUTH_COOKIE } from '../../contract/constants'
import { version } from '../../package.json'
import { errorRef, errorResponses, errorStatuses } from './errors'
import type { MiddlewareFacts } from './facts'
import { OPERATIONS, type Media, type Operation } from './operations'
import { mountedRoutes, pathParams, type MountedRoute } from './routes'
import { SchemaSet, type JsonSchema } from './schemas'
import { TAGS, tagOf } from './tags'

// The OpenAPI 3.1 document of the API, built from the app as mounted: its endpoints from Hono's
// routes, request schemas from the validators on each (the schemas they enforce), security and
// error answers from the middleware on each, the rest from the per-endpoint notes (operations.ts).

export interface DocumentOptions {
  /** Include the local tools (/api/dev/*): true only where ENVIRONMENT is "development". */
  development: boolean
}

const SECURITY = [{ bearerAuth: [] }, { cookieAuth: [] }]

/** An endpoint without a note still appears (openapi.test.ts fails until it has one). */
const unnoted = (route: MountedRoute): Operation => ({ summary: `${route.method} ${route.path}` })

/** `/api/vault/items/:id` → `/api/vault/items/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}')

/** `GET /api/vault/items/:id/content` → `getVaultItemsByIdContent`. */
function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? `by-${segment.slice(1)}` : segment))
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('')
}

function validated(facts: MiddlewareFacts[], target: string): z.ZodType[] {
  return facts.flatMap((f) => (f.validates?.target === target ? [f.validates.schema] : []))
}

/** The properties and required names of an object schema's JSON Schema. */
function objectParts(json: JsonSchema, where: string): { properties: Record<string, JsonSchema>; required: string[] } {
  if (json.type !== 'object' || typeof json.properties !== 'object') throw new Error(`${where}: parameters must be an object schema`)
  return { properties: json.properties as Record<string, JsonSchema>, required: (json.required as string[] | undefined) ?? [] }
}

function parameters(route: MountedRoute, op: Operation, schemas: SchemaSet): JsonSchema[] {
  const params = validated(route.facts, 'param').map((s) => objectParts(schemas.input(s), `${route.key} param`).properties)
  const inPath = pathParams(route.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: params.find((p) => name in p)?.[name] ?? { type: 'string' },
  }))
  const queries = [...validated(route.facts, 'query'), ...(op.query ? [op.query] : [])]
  const inQuery = queries.flatMap((schema) => {
    const { properties, required } = objectParts(schemas.input(schema), `${route.key} query`)
    return Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: required.includes(name), schema }))
  })
  return [...inPath, ...inQuery]
}

function mediaContent(media: Media, schemas: SchemaSet, io: 'input' | 'output'): JsonSchema {
  const schema = media.schema ? (io === 'input' ? schemas.input(media.schema) : schemas.output(media.schema)) : undefined
  const types = typeof media.type === 'string' ? [media.type] : media.type
  return Object.fromEntries(types.map((type) => [type, schema ? { schema } : {}]))
}

function requestBody(route: MountedRoute, op: Operation, schemas: SchemaSet): JsonSchema | undefined {
  const json = validated(route.facts, 'json')
  const form = validated(route.facts, 'form')
  if (json.length + form.length + (op.body ? 1 : 0) > 1) throw new Error(`${route.key}: more than one body is described`)
  if (json[0]) return { required: true, content: { 'application/json': { schema: schemas.input(json[0]) } } }
  if (form[0]) {
    const schema = schemas.input(form[0])
    return { required: true, content: { 'multipart/form-data': { schema }, 'application/x-www-form-urlencoded': { schema } } }
  }
  if (op.body) return { required: true, ...(op.body.description ? { description: op.body.description } : {}), content: mediaContent(op.body, schemas, 'input') }
  return undefined
}

function success(op: Operation, schemas: SchemaSet): JsonSchema {
  const answer = op.answer
  if (answer instanceof z.ZodType) return { description: 'Success.', content: { 'application/json': { schema: schemas.output(answer) } } }
  if (answer) return { description: answer.description ?? 'Success.', content: mediaContent(answer, schemas, 'output') }
  return { description: 'Success: a JSON object.', content: { 'application/json': { schema: { type: 'object' } } } }
}

function operation(route: MountedRoute, op: Operation, schemas: SchemaSet): JsonSchema {
  const session = route.facts.some((f) => f.session)
  const body = requestBody(route, op, schemas)
  const responses: JsonSchema = { [String(op.status ?? 200)]: success(op, schemas) }
  for (const status of errorStatuses(route.facts, pathParams(route.path).length > 0, op)) responses[String(status)] = errorRef(status)
  const params = parameters(route, op, schemas)
  return {
    tags: [tagOf(route.path)],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    operationId: operationId(route.method, route.path),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
    ...(session ? { security: SECURITY } : {}),
  }
}

/** The document for an app, as mounted. */
export function openApiDocument(app: Hono<any>, options: DocumentOptions): JsonSchema {
  const schemas = new SchemaSet()
  const paths: Record<string, Record<string, JsonSchema>> = {}
  const used = new Set<string>()
  for (const route of mountedRoutes(app)) {
    if (!options.development && route.facts.some((f) => f.developmentOnly)) continue
    const op = OPERATIONS[route.key] ?? unnoted(route)
    const item = (paths[openApiPath(route.path)] ??= {})
    item[route.method.toLowerCase()] = operation(route, op, schemas)
    used.add(tagOf(route.path))
  }
  const responses = errorResponses(schemas)
  return {
    openapi: '3.1.0',
    info: {
      title: 'Legacy Vault API',
      version,
      description:
        'The API of Legacy Vault, a zero-knowledge digital-inheritance vault. Generated from the app as mounted: each request schema is the one its validator enforces. Errors are JSON `{ message }`. Signed-in routes take the session token as `Authorization: Bearer <token>` (from sign-in or registration) or the HttpOnly session cookie the browser holds.',
    },
    tags: TAGS.filter((t) => used.has(t.name)),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas.components).sort(([a], [b]) => a.localeCompare(b))),
      responses,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The token answered by sign-in and registration.' },
        cookieAuth: { type: 'apiKey', in: 'cookie', name: AUTH_COOKIE, description: 'The HttpOnly session cookie set at sign-in.' },
      },
    },
  }
}
