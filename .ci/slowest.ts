// Prints each test file's duration from vitest's JSON report (CI writes it: vitest.config.ts), the
// ten slowest first, and the run's wall time. Usage: node .ci/slowest.ts [.tmp/test-report.json] [--save]
// --save also writes them to .ci/test-durations.json, which orders the files of a run that has no
// figures of its own (vitest.sequencer.ts), each under its path from the repository's root (the
// report's own checkout: `<root>/.tmp/test-report.json`), so that any clone finds them.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

interface Report {
  readonly startTime: number;
  readonly testResults: readonly { name: string; startTime: number; endTime: number; status: string }[];
}

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? '.tmp/test-report.json';
const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
const root = dirname(dirname(resolve(file)));
const files = report.testResults
  .map((r) => ({
    name: relative(root, r.name),
    seconds: (r.endTime - r.startTime) / 1000,
    status: r.status,
  }))
  .sort((a, b) => b.seconds - a.seconds);
const end = Math.max(...report.testResults.map((r) => r.endTime));
console.log(
  `\n== test files by duration (${files.length} files; the run took ${((end - report.startTime) / 1000).toFixed(0)} s)`,
);
for (const [i, f] of files.entries()) {
  if (i === 10) console.log('-- the ten slowest above; the rest:');
  console.log(`${f.seconds.toFixed(1).padStart(7)} s  ${f.status === 'passed' ? '' : `[${f.status}] `}${f.name}`);
}
if (args.includes('--save')) {
  const durations = Object.fromEntries(
    [...files].sort((a, b) => a.name.localeCompare(b.name)).map((f) => [f.name, Math.round(f.seconds * 10) / 10]),
  );
  writeFileSync('.ci/test-durations.json', `${JSON.stringify(durations, null, 2)}\n`);
  console.log('(saved to .ci/test-durations.json)');
}
