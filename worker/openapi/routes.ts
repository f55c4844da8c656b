import type { Hono } from 'hono'
import { factsOf, type MiddlewareFacts } from './facts'

/** One endpoint the app serves under /api, with what the handlers that run before it enforce. */
export interface MountedRoute {
  /** GET, POST… as registered. */
  method: string
  /** Hono's pattern, `/api/vault/items/:id`. */
  path: string
  /** `${method} ${path}`: how the security suite's table and the per-route notes name it. */
  key: string
  /** The facts of every middleware that runs for it, in the order they run (validators included). */
  facts: MiddlewareFacts[]
}

const PARAM = /:(\w+)/g

/** The names of a pattern's path parameters, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(PARAM)].map((m) => m[1]!)
}

/**
 * Every /api endpoint of the app (middleware and catch-alls are registered as ALL and are not
 * endpoints), in the order registered. What runs for an endpoint is asked of Hono's own router,
 * with each parameter filled by a placeholder: the handlers that match, up to the endpoint's own,
 * are the ones a request to it passes through (a router mounted before it, a path-less use()).
 */
export function mountedRoutes(app: Hono<any>): MountedRoute[] {
  const last = new Map<string, (typeof app.routes)[number]>()
  for (const route of app.routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/api/')) continue
    last.set(`${route.method} ${route.path}`, route)
  }
  return [...last].map(([key, own]) => {
    if (/[*?{]/.test(own.path)) throw new Error(`${key}: only plain :name parameters can be documented`)
    const sample = own.path.replace(PARAM, (_, name: string) => `__${name}__`)
    const matched = app.router.match(own.method, sample)[0].map(([[handler, route]]) => ({ handler, route }))
    const end = matched.findIndex((m) => m.route === own)
    if (end < 0) throw new Error(`${key}: the router does not reach this route`)
    const facts = matched
      .slice(0, end + 1)
      .map((m) => factsOf(m.handler))
      .filter((f): f is MiddlewareFacts => f !== undefined)
    return { method: own.method, path: own.path, key, facts }
  })
}
