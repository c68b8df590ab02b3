/**
 * The order test files start in, for a suite whose files run side by side (vitest.config.ts): the
 * longest first, so that no long file starts last and runs alone at the end, and the browser
 * journeys spread through the queue by time: they may hold BROWSER_SLOTS of the WORKERS at once, so
 * the next file is a journey while the journeys placed so far fill their lanes no more than the
 * other files fill theirs. Spread by count instead, the journeys (over half the run's work) bunched
 * at the end, two at a time beside an idle worker. How long a file takes comes from vitest's own
 * record of the last run on this machine, else from `.ci/test-durations.json` (a CI run's figures,
 * refreshed with `node .ci/slowest.ts --save`); a file in neither counts as short.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { BROWSER_SLOTS } from './apps/server/test/helpers/browser-slots.ts';

/** Test files at once (vitest.config.ts's maxWorkers). */
export const WORKERS = 3;

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
    // Each group's work per lane: the journeys have BROWSER_SLOTS lanes, the rest what is left.
    const journeyLanes = Math.min(BROWSER_SLOTS, WORKERS - 1);
    const otherLanes = WORKERS - journeyLanes;
    const ordered: TestSpecification[] = [];
    let journeyTime = 0;
    let otherTime = 0;
    for (let i = 0, j = 0; i + j < files.length;) {
      const journeyDue =
        j < journeys.length && (i >= rest.length || journeyTime / journeyLanes <= otherTime / otherLanes);
      const next = (journeyDue ? journeys[j++] : rest[i++]) as TestSpecification;
      if (journeyDue) journeyTime += seconds(next);
      else otherTime += seconds(next);
      ordered.push(next);
    }
    return Promise.resolve(ordered);
  }
}
