import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * A sequencer that starts the named files first, in the order given, then the rest in vitest's
 * own order: with files run two at a time, a minute-long file started last would leave one worker
 * alone at the end of the run. (vitest orders by earlier durations only when it has them cached,
 * which a fresh clone has not.)
 */
export function slowFilesFirst(slow: string[]): typeof BaseSequencer {
  return class SlowFilesFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const rank = (file: TestSpecification) => {
        const at = slow.findIndex((name) => file.moduleId.endsWith(name))
        return at === -1 ? slow.length : at
      }
      return (await super.sort(files)).sort((a, b) => rank(a) - rank(b))
    }
  }
}
