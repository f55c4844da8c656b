import { app } from './app'
import { runSweeps } from './cron'

export { OwnerGuard } from './owner-guard'

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      runSweeps(env).then((result) => console.log('sweeps', JSON.stringify(result))),
    )
  },
} satisfies ExportedHandler<Env>
