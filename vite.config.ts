import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { estatePage } from './scripts/estate-page.ts'

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
    // The estate bundle's offline page, one self-contained HTML file beside the SPA.
    estatePage({ alias: { '@': webDir } }),
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
    // The password-strength dictionaries are one lazy chunk of about 1.2 MB, fetched only when a
    // password is typed; what a first visit loads is held to its budget by test/web/first-load.test.ts.
    chunkSizeWarningLimit: 1400,
    rolldownOptions: {
      // Required by the inlining below; the SPA's entry exports nothing anyway.
      preserveEntrySignatures: false,
      output: {
        codeSplitting: {
          // Everything index.html loads at once in one chunk beside the entry (not the seven that
          // automatic splitting makes of the modules the routes also import), and the smallest shared
          // pieces (an icon, a ui component, a contract's words: common chunks under 4 KiB before
          // minifying) copied into the route chunks that use them rather than served as files of a
          // few hundred bytes each: a public page is six requests instead of thirty-five. A registry
          // in rolldown's runtime keeps one instance of each copied module. Larger shared code (the
          // crypto module, Radix) stays in shared files: copying it would make every app page
          // download it again (4 KiB adds a fifth to all the JS; 32 KiB would double it).
          groups: [{ name: 'initial', tags: ['$initial'] }],
          experimentalInlineCommonChunks: { maxSize: 4 * 1024, exclude: /\.css(\?|$)/ },
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': `http://localhost:${process.env.PORT ?? 8787}` },
  },
})
