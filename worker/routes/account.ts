import { Hono } from 'hono'
import type { AppEnv } from '../types'

// /api/account/*: subscription, cancellation and deletion.
export const accountRoutes = new Hono<AppEnv>()
