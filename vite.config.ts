import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const webDir = fileURLToPath(new URL('./web', import.meta.url))

// The SPA. `npm start` builds it into dist/client for Workers Assets; `npm run dev` serves it with
// hot reload and proxies /api to `wrangler dev`.
export default defineConfig({
  root: webDir,
  publicDir: fileURLToPath(new URL('./web/public', import.meta.url)),
  plugins: [
    tanstackRouter({
      target: 'react',
      routesDirectory: fileURLToPath(new URL('./web/routes', import.meta.url)),
      generatedRouteTree: fileURLToPath(new URL('./web/route-tree.gen.ts', import.meta.url)),
      autoCodeSplitting: true,
    }),
    react(),
    tailwindcss(),
  ],
  resolve: { alias: { '@': webDir } },
  define: {
    // The local mailbox page exists only in builds made for a local run (`npm start`, `npm run dev`).
    __DEV_TOOLS__: JSON.stringify(process.env.LEGACY_VAULT_DEV_TOOLS === '1'),
  },
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': `http://localhost:${process.env.PORT ?? 8787}` },
  },
})
