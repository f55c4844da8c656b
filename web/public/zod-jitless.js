// Runs before the app's modules. zod reads its settings from this global when it loads; without
// `jitless` it probes for eval (`new Function`) to compile fast parsers, and the strict CSP (no
// 'unsafe-eval') reports that probe as a violation on every page. It then uses the interpreted
// parsers, which is what it would fall back to anyway.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true })
