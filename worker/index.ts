import { app } from './app'
import { runSweeps } from './cron'

export { OwnerVault } from './host/vault-object'

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      runSweeps(env).then((result) => console.log('sweeps', JSON.stringify(result))),
    )
  },
} satisfies ExportedHandler<Env>
