/**
 * The order test files start in, for a suite whose files run side by side (vitest.config.ts): the
 * longest first, so that no long file starts last and runs alone at the end, and the browser
 * journeys spread evenly through the queue rather than bunched, so that each worker mixes a
 * journey's CPU with the waiting of the server suites. How long a file takes comes from vitest's own
 * record of the last run on this machine, else from `.ci/test-durations.json` (a CI run's figures,
 * refreshed with `node .ci/slowest.ts --save`); a file in neither counts as short.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const BROWSER_PROJECT = 'e2e';
const ROOT = import.meta.dirname;
/** Seconds a file took in a CI run, by path from the repository's root. */
const RECORDED: Record<string, number> = JSON.parse(
  readFileSync(resolve(ROOT, '.ci', 'test-durations.json'), 'utf8'),
) as Record<string, number>;
/** A file with no figure: a unit test file, most likely. */
const UNKNOWN_SECONDS = 2;

export default class InterleavedSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (spec: TestSpecification): number =>
      (this.ctx.cache.getTestSpecificationResult(spec)?.duration ?? 0) / 1000 ||
      RECORDED[relative(ROOT, spec.moduleId)] ||
      UNKNOWN_SECONDS;
    const longestFirst = (list: TestSpecification[]) => list.sort((a, b) => seconds(b) - seconds(a));
    const journeys = longestFirst(files.filter((s) => s.project.name === BROWSER_PROJECT));
    const rest = longestFirst(files.filter((s) => s.project.name !== BROWSER_PROJECT));
    const ordered: TestSpecification[] = [];
    const every = files.length / Math.max(1, journeys.length);
    for (let i = 0, j = 0; i + j < files.length;) {
      const journeyDue = j < journeys.length && (i >= rest.length || i + j >= Math.floor(j * every));
      ordered.push(journeyDue ? (journeys[j++] as TestSpecification) : (rest[i++] as TestSpecification));
    }
    return Promise.resolve(ordered);
  }
}
