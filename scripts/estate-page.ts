import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'vite'

// The estate bundle's offline page (web/estate/): built with the app, from the app's own crypto
// and seal checks, into ONE self-contained HTML file (script and style inline, nothing fetched), so
// an heir can open it from a drive with the network off. `vite build` writes it beside the SPA as
// open-estate.html; the owner's browser fetches it from there when it makes a bundle.

const estateDir = fileURLToPath(new URL('../web/estate', import.meta.url))
export const ESTATE_PAGE_FILE = 'open-estate.html'

/** Puts every emitted script into the page and drops the script files. */
function inlineIntoHtml(): Plugin {
  return {
    name: 'estate-page-inline',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const page = Object.values(bundle).find((o) => o.type === 'asset' && o.fileName.endsWith('.html'))
      if (!page || page.type !== 'asset') throw new Error('estate page: no HTML emitted')
      let html = String(page.source)
      for (const [file, output] of Object.entries(bundle)) {
        if (output.type !== 'chunk' && !file.endsWith('.css')) continue
        const code = output.type === 'chunk' ? output.code : String(output.source)
        const tag = new RegExp(`<script[^>]*src="[^"]*${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*></script>`)
        const css = new RegExp(`<link[^>]*href="[^"]*${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`)
        if (output.type === 'chunk') {
          if (!tag.test(html)) throw new Error(`estate page: ${file} is not referenced by the page (it must be one file)`)
          // `</script` inside the code would end the element early.
          html = html.replace(tag, () => `<script type="module">${code.replace(/<\/script/gi, '<\\/script')}</script>`)
        } else {
          html = html.replace(css, () => `<style>${code}</style>`)
        }
        delete bundle[file]
      }
      if (/<script[^>]*\ssrc=|<link[^>]*\shref=/.test(html)) throw new Error('estate page: something is still loaded from a file')
      page.source = html
    },
  }
}

export function estatePage({ alias }: { alias: Record<string, string> }): Plugin {
  let outDir = ''
  return {
    name: 'estate-page',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    async closeBundle() {
      await build({
        configFile: false,
        root: estateDir,
        base: './',
        logLevel: 'warn',
        publicDir: false,
        resolve: { alias },
        define: { __DEV_TOOLS__: 'false' },
        plugins: [inlineIntoHtml()],
        build: {
          outDir,
          emptyOutDir: false,
          sourcemap: false,
          modulePreload: false,
          assetsInlineLimit: Number.MAX_SAFE_INTEGER,
          rolldownOptions: { input: `${estateDir}/${ESTATE_PAGE_FILE}`, output: { codeSplitting: false } },
        },
      })
    },
  }
}
