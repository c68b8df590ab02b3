/**
 * The docs check's own logic (.ci/docs-check.ts) on small fixtures: if a slug, a link, an npm command,
 * a variable or a citation were read wrongly, .ci/docs.test.ts would pass over broken docs or fail
 * over good ones.
 */
import { describe, expect, it } from 'vitest';
import {
  type Tree,
  anchors,
  checkLinks,
  citations,
  configTableRows,
  envReads,
  formatProblem,
  links,
  npmRuns,
  resolvePath,
  slug,
} from './docs-check.ts';

/** An in-memory repository: files by path; folders are the prefixes of their paths. */
function fakeTree(files: Record<string, string>): Tree {
  return {
    kind(path) {
      if (path in files) return 'file';
      return Object.keys(files).some((file) => file.startsWith(`${path}/`)) ? 'dir' : null;
    },
    read(path) {
      const text = files[path];
      if (text === undefined) throw new Error(`no ${path} in the fixture`);
      return text;
    },
  };
}

describe('slug (GitHub heading anchors)', () => {
  it.each([
    ['Quick start', 'quick-start'],
    ['Faults tested, and what a player waits', 'faults-tested-and-what-a-player-waits'],
    ['`db:backup` and `db:restore`', 'dbbackup-and-dbrestore'],
    ['Behind nginx (TLS)', 'behind-nginx-tls'],
    ['Players — and bots', 'players--and-bots'],
    ['C++ & Node.js 24', 'c--nodejs-24'],
    ['snake_case stays', 'snake_case-stays'],
    ['Café au lait', 'café-au-lait'],
    ['[The rules](docs/game-rules.md) in short', 'the-rules-in-short'],
    ['**Bold** move', 'bold-move'],
    ['Closing hashes ##', 'closing-hashes'],
    ['"Match me"', 'match-me'],
    ['Game length against the spec', 'game-length-against-the-spec'],
  ])('%s → #%s', (heading, anchor) => {
    expect(slug(heading)).toBe(anchor);
  });
});

describe('anchors', () => {
  it('numbers repeated headings -1, -2 and skips headings inside code fences', () => {
    const markdown = [
      '# Title',
      '## Setup',
      '```sh',
      '# Setup (a shell comment, not a heading)',
      '```',
      '## Setup',
      '### Setup',
      'Underlined',
      '==========',
      'Also underlined',
      '---',
      '<a id="custom-anchor"></a>',
    ].join('\n');
    expect([...anchors(markdown)].sort()).toEqual(
      ['also-underlined', 'custom-anchor', 'setup', 'setup-1', 'setup-2', 'title', 'underlined'].sort(),
    );
  });

  it('does not take a table or a list item above a rule for a heading', () => {
    expect([...anchors('| a | b |\n| --- | --- |\n\n- item\n---\n')]).toEqual([]);
  });
});

describe('links', () => {
  it('finds inline links, images, reference definitions and HTML links, and ignores code', () => {
    const markdown = [
      'See [the rules](docs/game-rules.md#dealing "title") and ![shot](docs/shot.png).',
      'Not a link: `[x](nowhere.md)`.',
      '```md',
      '[inside a fence](nowhere-either.md)',
      '```',
      '[ref]: docs/limits.md',
      '<img src="docs/logo.svg" alt=""> <a href="#top">top</a> [spaces](<docs/a b.md>)',
    ].join('\n');
    expect(links(markdown)).toEqual([
      { line: 1, target: 'docs/game-rules.md#dealing' },
      { line: 1, target: 'docs/shot.png' },
      { line: 6, target: 'docs/limits.md' },
      { line: 7, target: 'docs/a b.md' },
      { line: 7, target: 'docs/logo.svg' },
      { line: 7, target: '#top' },
    ]);
  });
});

describe('resolvePath', () => {
  it('resolves from the linking file, from the root with a leading slash, and refuses to leave the root', () => {
    expect(resolvePath('docs/operations.md', '../README.md')).toBe('README.md');
    expect(resolvePath('docs/operations.md', './cluster.md')).toBe('docs/cluster.md');
    expect(resolvePath('docs/operations.md', '/deploy/nginx.conf')).toBe('deploy/nginx.conf');
    expect(resolvePath('README.md', '../elsewhere.md')).toBeNull();
  });
});

describe('checkLinks', () => {
  const tree = fakeTree({
    'README.md': [
      '# MemeSlam',
      '## Quick start',
      '[ok](docs/ops.md#backups) [ok](#quick-start) [ok](docs/) [ok](https://example.com/x.md#nope)',
      '[missing file](docs/nope.md)',
      '[missing anchor](docs/ops.md#backup)',
      '[missing here](#quickstart)',
      '[line](apps/main.ts#L2) [past the end](apps/main.ts#L9) [not a line](apps/main.ts#top)',
      '[escape](../outside.md) [encoded](docs/my%20notes.md)',
    ].join('\n'),
    'docs/ops.md': '# Operations\n## Backups\n[up](../README.md#memeslam)',
    'docs/my notes.md': 'notes',
    'apps/main.ts': 'one\ntwo\n',
  });

  it('passes good links and names each broken one with its line and a fix', () => {
    expect(checkLinks('docs/ops.md', tree)).toEqual([]);
    expect(checkLinks('README.md', tree).map(formatProblem)).toEqual([
      'README.md:4: link "docs/nope.md" points to docs/nope.md, which does not exist: fix the path or remove the link',
      'README.md:5: link "docs/ops.md#backup": docs/ops.md has no heading #backup; did you mean #backups?',
      'README.md:6: link "#quickstart": README.md has no heading #quickstart; did you mean #quick-start?',
      'README.md:7: link "apps/main.ts#L9": apps/main.ts has only 2 lines',
      'README.md:7: link "apps/main.ts#top": #top is not a line anchor (#L12 or #L12-L20) of apps/main.ts',
      'README.md:8: link "../outside.md" leaves the repository: link a file inside it',
    ]);
  });
});

describe('npmRuns', () => {
  it('reads the script and the workspace, wherever the -w flag stands', () => {
    const text = [
      '```sh',
      'npm run build -w @memeslam/web && npm start',
      'npm --workspace=apps/web run dev',
      'npm run db:backup -- --out backups/x.dump -w not-a-flag',
      '```',
      'Run `npm test` first; `npm run <name>` is a placeholder, `npm ci` installs.',
    ].join('\n');
    expect(npmRuns(text).map(({ line, script, workspace }) => ({ line, script, workspace }))).toEqual([
      { line: 2, script: 'build', workspace: '@memeslam/web' },
      { line: 2, script: 'start', workspace: null },
      { line: 3, script: 'dev', workspace: 'apps/web' },
      { line: 4, script: 'db:backup', workspace: null },
      { line: 6, script: 'test', workspace: null },
    ]);
  });
});

describe('envReads', () => {
  it('finds process.env, import.meta.env.VITE_ and shell defaults, not other names', () => {
    const source = [
      "const a = process.env.DATABASE_URL ?? process.env['REDIS_URL'];",
      'const b = import.meta.env.VITE_TRADE_URL; const dev = import.meta.env.DEV;',
      'PG="${PG_ADMIN_URL:-postgres://}"; echo "${SECONDS}"',
      'const c = env.NOT_PROCESS_ENV; process.env[name];',
    ].join('\n');
    expect(envReads(source)).toEqual([
      { name: 'DATABASE_URL', line: 1 },
      { name: 'REDIS_URL', line: 1 },
      { name: 'VITE_TRADE_URL', line: 2 },
      { name: 'PG_ADMIN_URL', line: 3 },
    ]);
  });
});

describe('configTableRows', () => {
  it('takes the rows of tables whose first column is a variable in backticks, in every such table', () => {
    const markdown = [
      '| variable | default | meaning |',
      '| -------- | ------- | ------- |',
      '| `PORT`   | `3000`  | port    |',
      '| `HOST`   | all     | address |',
      '',
      '| command | what |',
      '| --- | --- |',
      '| `npm test` | tests |',
      '',
      '| code | meaning |',
      '| --- | --- |',
      '| `ROOM_FULL` | a refusal |',
      '| the rest | prose |',
      '',
      '| build-time variable | default |',
      '| :--- | ---: |',
      '| `VITE_TRADE_URL` | jup |',
    ].join('\n');
    expect(configTableRows(markdown)).toEqual([
      { name: 'PORT', line: 3 },
      { name: 'HOST', line: 4 },
      { name: 'VITE_TRADE_URL', line: 17 },
    ]);
  });
});

describe('citations', () => {
  // Built from parts, so that this file does not cite anything itself.
  const design = 'DESIGN';
  const section = '\u00a7';
  const issue = 'Issue';

  it('finds the design notes, issues by number and the spec by section, in any case', () => {
    const text = [
      `// ${design} ${section}4: the pile table`,
      `see ${design.toLowerCase()}.md`,
      `fixed in ${issue} 13 and ${issue.toLowerCase()}s #14`,
      `as the spec\u2019s ${section}7 says`,
    ].join('\n');
    expect(citations(text).map(({ line }) => line)).toEqual([1, 2, 3, 3, 4]);
  });

  it('lets ordinary words be', () => {
    expect(citations('issues[0] of the parse; tissue 3; an issue; the design notes; the spec says')).toEqual([]);
  });
});
