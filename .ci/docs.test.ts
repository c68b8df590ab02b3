/**
 * Docs that cannot drift: part of `npm test`, so CI fails when the documents and the code disagree.
 *
 * - Links: every relative link in README.md, deploy/README.md and docs/**\/*.md points to a file or
 *   folder that exists, and its #anchor to a heading of the target (GitHub's slugs: lower case, spaces
 *   to hyphens, punctuation dropped, a repeated heading -1, -2…) or to a line (#L12) of a source file.
 * - npm scripts: every `npm run <script>` (`npm test`, `npm start`) in those documents is a script of
 *   the root package.json, or of the workspace it names with -w / --workspace (by name or folder).
 * - Environment variables, in two kinds:
 *   - the operator's: the keys of `envSchema` (apps/server/src/config.ts) and the build-time
 *     `import.meta.env.VITE_*` the web app reads (apps/web/src). README.md's configuration table (a
 *     table whose first column is the variable in backticks; it may be split in several) lists
 *     exactly these, each once;
 *   - the tooling's: anything else the tests, benchmarks, browser journeys or CI read (process.env in
 *     apps/server, apps/web, bench, e2e, packages, .ci and the root configs; `${NAME:-…}` in .ci/run).
 *     Each is named somewhere in README.md or docs/ (docs/contributing.md is their place) and never
 *     in the configuration table. Not counted: the system's PATH, and the variables a test sets
 *     only for a process it starts itself (NOT_DOCUMENTED below).
 *   A variable assigned in a document (`NAME=value`, in code or prose) must be one of the two kinds
 *   or a variable of the platform (PLATFORM below).
 * - README.md is at most 500 lines: the rest belongs in docs/.
 * - No file under apps/, packages/, e2e/, bench/, .ci/, deploy/, docs/ (nor the root's files) cites
 *   a document that is not in the repository: the design notes by section or file name, an issue by
 *   number, the spec by section. Cite a file of the repository (docs/…) or state the rule instead.
 *
 * The logic is unit-tested in .ci/docs-check.test.ts; this file runs it over the repository.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'vitest';
import { envSchema } from '../apps/server/src/config.ts';
import {
  type Problem,
  type Tree,
  checkLinks,
  citations,
  configTableRows,
  envReads,
  formatProblem,
  npmRuns,
} from './docs-check.ts';

const ROOT = resolve(import.meta.dirname, '..');
const README = 'README.md';
const README_MAX_LINES = 500;

/** Read by the code but for no person to set: the system's search path; a test's child process. */
const NOT_DOCUMENTED = new Map([
  ['PATH', 'the system search path'],
  ['RECORD_MODULES_TO', 'set by apps/server/test/process.test.ts for the server process it starts'],
]);
/** Variables of the platform a document may set without the code reading them. */
const PLATFORM = new Set(['PATH', 'HOME', 'NODE_OPTIONS', 'MALLOC_TRIM_THRESHOLD_', 'DEBIAN_FRONTEND']);

/** Folders never walked: dependencies, builds, data, scratch, git. */
const SKIPPED = new Set(['node_modules', 'dist', 'data', '.tmp', 'test-results', '.git']);

/** Every file under a folder of the repository (paths from the root, `/`-separated), sorted. */
function walk(folder: string): string[] {
  const start = join(ROOT, folder);
  if (!existsSync(start)) return [];
  const files: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.isFile()) files.push(relative(ROOT, path).split('\\').join('/'));
    }
  };
  visit(start);
  return files.sort();
}

/** The root's own files (README.md, the configs), not its folders. */
function rootFiles(): string[] {
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== 'package-lock.json')
    .map((entry) => entry.name)
    .sort();
}

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Text files only: a NUL byte in the first 8 KB marks a binary one. */
function readText(path: string): string | null {
  const buffer = readFileSync(join(ROOT, path));
  if (buffer.subarray(0, 8192).includes(0)) return null;
  return buffer.toString('utf8');
}

const tree: Tree = {
  kind(path) {
    const full = join(ROOT, path);
    if (!existsSync(full)) return null;
    return statSync(full).isDirectory() ? 'dir' : 'file';
  },
  read,
};

const DOCUMENTS = [README, 'deploy/README.md', ...walk('docs').filter((file) => file.endsWith('.md'))].filter((file) =>
  existsSync(join(ROOT, file)),
);

/** Fails with every problem on its own line, `file:line: what to do`. */
function expectNone(problems: readonly Problem[], what: string): void {
  if (problems.length === 0) return;
  throw new Error(`${problems.length} ${what}:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
}

interface PackageJson {
  readonly name?: string;
  readonly scripts?: Record<string, string>;
  readonly workspaces?: readonly string[];
}

/** The root's scripts, and each workspace's by its name and by its folder. */
function scriptsByPackage(): { root: Record<string, string>; workspaces: Map<string, Record<string, string>> } {
  const root = JSON.parse(read('package.json')) as PackageJson;
  const workspaces = new Map<string, Record<string, string>>();
  for (const folder of root.workspaces ?? []) {
    const pkg = JSON.parse(read(`${folder}/package.json`)) as PackageJson;
    workspaces.set(folder, pkg.scripts ?? {});
    workspaces.set(`./${folder}`, pkg.scripts ?? {});
    if (pkg.name) workspaces.set(pkg.name, pkg.scripts ?? {});
  }
  return { root: root.scripts ?? {}, workspaces };
}

/** Where the code reads environment variables: sources, tests, benchmarks, journeys, CI, root configs. */
function envSources(): string[] {
  const own = new Set(['.ci/docs.test.ts', '.ci/docs-check.ts', '.ci/docs-check.test.ts']);
  const folders = ['apps', 'packages', 'bench', 'e2e', '.ci'];
  return [...folders.flatMap(walk), ...rootFiles()].filter(
    (file) => !own.has(file) && (/\.(ts|tsx|js|mjs|cjs)$/.test(file) || file === '.ci/run'),
  );
}

/** Each variable the code reads, with every place (`file:line`) that reads it. */
function variablesRead(): Map<string, string[]> {
  const reads = new Map<string, string[]>();
  for (const file of envSources()) {
    const text = readText(file);
    if (text === null) continue;
    for (const { name, line } of envReads(text)) reads.set(name, [...(reads.get(name) ?? []), `${file}:${line}`]);
  }
  return reads;
}

function operatorVariables(reads: Map<string, string[]>): Set<string> {
  const server = Object.keys(envSchema.shape);
  const web = [...reads.entries()]
    .filter(([name, places]) => name.startsWith('VITE_') && places.some((p) => p.startsWith('apps/web/src/')))
    .map(([name]) => name);
  return new Set([...server, ...web]);
}

describe('the docs match the repository', () => {
  it('every relative link points to a file that exists, and every #anchor to a heading of it', () => {
    expectNone(
      DOCUMENTS.flatMap((file) => checkLinks(file, tree)),
      'broken links (fix the path or the #anchor; anchors are GitHub slugs of the target headings)',
    );
  });

  it('every documented npm command runs a script that exists', () => {
    const { root, workspaces } = scriptsByPackage();
    const problems: Problem[] = [];
    for (const file of DOCUMENTS) {
      for (const run of npmRuns(read(file))) {
        if (run.workspace !== null) {
          const scripts = workspaces.get(run.workspace);
          if (!scripts) {
            problems.push({
              file,
              line: run.line,
              message: `"${run.command}": no workspace "${run.workspace}" (the root package.json's workspaces, by name or folder: ${[...workspaces.keys()].join(', ')})`,
            });
          } else if (!(run.script in scripts)) {
            problems.push({
              file,
              line: run.line,
              message: `"${run.command}": workspace ${run.workspace} has no script "${run.script}" (it has: ${Object.keys(scripts).join(', ') || 'none'}); add it to its package.json or fix the document`,
            });
          }
        } else if (!(run.script in root)) {
          problems.push({
            file,
            line: run.line,
            message: `"${run.command}": the root package.json has no script "${run.script}" (it has: ${Object.keys(root).join(', ')}); add it or fix the document`,
          });
        }
      }
    }
    expectNone(problems, 'documented npm commands without a script');
  });

  it("README's configuration table lists exactly the operator's variables, and docs name every other one", () => {
    const reads = variablesRead();
    const operator = operatorVariables(reads);
    const tooling = new Map(
      [...reads]
        .filter(([name]) => !operator.has(name) && !NOT_DOCUMENTED.has(name))
        .map(([name, places]) => [name, places[0] as string]),
    );
    const problems: Problem[] = [];

    const rows = configTableRows(read(README));
    const listed = new Map<string, number>();
    for (const { name, line } of rows) {
      if (listed.has(name)) {
        problems.push({
          file: README,
          line,
          message: `${name} is listed twice (also line ${listed.get(name)}): keep one row`,
        });
      }
      listed.set(name, listed.get(name) ?? line);
      if (tooling.has(name)) {
        problems.push({
          file: README,
          line,
          message: `${name} is a test/benchmark variable (read at ${tooling.get(name)}), not the operator's: move it to docs/contributing.md`,
        });
      } else if (!operator.has(name)) {
        problems.push({
          file: README,
          line,
          message: `${name} is in the configuration table but nothing reads it (not a key of envSchema in apps/server/src/config.ts, nor a VITE_ variable of apps/web/src): remove the row or fix its name`,
        });
      }
    }
    for (const name of operator) {
      if (!listed.has(name)) {
        problems.push({
          file: README,
          line: rows.at(-1)?.line ?? 1,
          message: `${name} is read by the ${name.startsWith('VITE_') ? 'web app at build time' : 'server (envSchema in apps/server/src/config.ts)'} but not in the configuration table: add a row | \`${name}\` | default | what it does |`,
        });
      }
    }

    const documents = DOCUMENTS.map((file) => read(file)).join('\n');
    for (const [name, where] of tooling) {
      if (!new RegExp(`(^|[^A-Za-z0-9_])${name}([^A-Za-z0-9_]|$)`).test(documents)) {
        const [file, line] = where.split(':');
        problems.push({
          file: file as string,
          line: Number(line),
          message: `${name} is read here but no document names it: say what it does and its default in docs/contributing.md (or README.md)`,
        });
      }
    }

    for (const file of DOCUMENTS) {
      read(file)
        .split(/\r?\n/)
        .forEach((text, index) => {
          for (const match of text.matchAll(/(?:^|[\s`;&|(])(?:export\s+)?([A-Z][A-Z0-9_]*[A-Z0-9_])=/g)) {
            const name = match[1] as string;
            if (!reads.has(name) && !operator.has(name) && !PLATFORM.has(name)) {
              problems.push({
                file,
                line: index + 1,
                message: `${name}= is documented but no code reads ${name}: fix the name or remove it`,
              });
            }
          }
        });
    }
    expectNone(problems, 'environment variables documented wrongly or not at all');
  });

  it(`README.md is at most ${README_MAX_LINES} lines`, () => {
    const lines = read(README).replace(/\n$/, '').split('\n').length;
    if (lines > README_MAX_LINES) {
      throw new Error(
        `README.md:${README_MAX_LINES + 1}: README.md has ${lines} lines, more than ${README_MAX_LINES}: move detail into docs/ and link it`,
      );
    }
  });

  it('no file cites a document that is not in the repository', () => {
    const files = [...['apps', 'packages', 'e2e', 'bench', '.ci', 'deploy', 'docs'].flatMap(walk), ...rootFiles()];
    const problems: Problem[] = [];
    for (const file of files) {
      const text = readText(file);
      if (text === null) continue;
      for (const { line, cited } of citations(text)) {
        problems.push({
          file,
          line,
          message: `"${cited}" cites a document outside the repository: cite a file in it (docs/…) or state the rule here`,
        });
      }
    }
    expectNone(problems, 'citations of documents outside the repository');
  });
});
