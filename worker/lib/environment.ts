/** Local-only tools. ENVIRONMENT is "production" unless .dev.vars (never deployed) says otherwise. */
export const isDevelopment = (env: Env) => env.ENVIRONMENT === 'development'
