import { Hono } from 'hono'
import type { AppEnv } from '../types'

// /api/admin/*: the back office.
export const adminRoutes = new Hono<AppEnv>()
