import { Hono } from 'hono'
import type { AppEnv } from '../types'

// PUT /api/profile and the password change: filled in by the profile work.
export const profileRoutes = new Hono<AppEnv>()
