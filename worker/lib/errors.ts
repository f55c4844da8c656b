import type { ContentfulStatusCode } from 'hono/utils/http-status'

// The one error type routes and services throw; app.onError turns it into `{ message, ...extra }`.
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new ApiError(400, message, extra)
export const unauthorized = (message: string) => new ApiError(401, message)
export const forbidden = (message: string) => new ApiError(403, message)
export const notFound = (message: string) => new ApiError(404, message)
export const conflict = (message: string) => new ApiError(409, message)
export const tooManyRequests = (message: string) => new ApiError(429, message)
