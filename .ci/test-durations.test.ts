/**
 * The figures vitest.sequencer.ts orders a clean clone's run by: each under its path from the
 * repository's root, for a test file that exists. Saved once with absolute paths (another clone's),
 * none was found and the whole suite ran in alphabetical order, the long files last.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const durations = JSON.parse(readFileSync(resolve(ROOT, '.ci', 'test-durations.json'), 'utf8')) as Record<
  string,
  number
>;

describe('.ci/test-durations.json', () => {
  it('names each test file by its path from the repository root', () => {
    const names = Object.keys(durations);
    expect(names.length).toBeGreaterThan(50);
    expect(names.filter((name) => isAbsolute(name) || !name.endsWith('.test.ts'))).toEqual([]);
    expect(names.filter((name) => !existsSync(resolve(ROOT, name)))).toEqual([]);
  });

  it('holds the long journeys, so they start first', () => {
    const journeys = Object.entries(durations).filter(([name]) => name.startsWith('e2e/'));
    expect(journeys.length).toBeGreaterThan(10);
    expect(Math.max(...journeys.map(([, seconds]) => seconds))).toBeGreaterThan(30);
  });
});
