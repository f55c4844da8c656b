// Types of build-reuse.mjs for the tests that import it.
export const BUILD_INPUTS: string[]
export function buildInputsDigest(root: string, recipe: string, inputs?: string[]): string
export function stampPath(outDir: string): string
export function buildDecision(state: { inputs: string; stamp: { inputs: string; index: string } | null; index: string | null }): string | null
export function checkBuild(options: { root: string; outDir: string; recipe: string }): { reason: string | null; forget(): void; record(): void }
