/**
 * The pieces of the docs check (.ci/docs.test.ts), pure so that .ci/docs-check.test.ts can feed them
 * small fixtures: GitHub's heading anchors, the links of a markdown file, the `npm run` commands and
 * the environment variables a text names or a source reads, and the citations of documents that are
 * not in the repository. Every finding is a `Problem`: the file, the line and what to do.
 */

export interface Problem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

/** `file:line: message`, the form editors and terminals turn into a link. */
export function formatProblem(problem: Problem): string {
  return `${problem.file}:${problem.line}: ${problem.message}`;
}

/** A markdown line with its number (1-based) and whether it sits inside a fenced code block. */
export interface MarkdownLine {
  readonly text: string;
  readonly line: number;
  readonly inCode: boolean;
}

/** Splits markdown into lines, marking those inside ``` or ~~~ fences (the fence lines too). */
export function markdownLines(markdown: string): MarkdownLine[] {
  const lines: MarkdownLine[] = [];
  let fence: string | null = null;
  markdown.split(/\r?\n/).forEach((text, index) => {
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(text);
    if (fence === null && open) {
      fence = open[1] as string;
      lines.push({ text, line: index + 1, inCode: true });
      return;
    }
    if (fence !== null) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(text);
      if (close && close[1]?.[0] === fence[0] && (close[1]?.length ?? 0) >= fence.length) fence = null;
      lines.push({ text, line: index + 1, inCode: true });
      return;
    }
    lines.push({ text, line: index + 1, inCode: false });
  });
  return lines;
}

/** Replaces inline code spans with spaces (same length), so a link written as code is not a link. */
export function blankCodeSpans(text: string): string {
  return text.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, (span) => ' '.repeat(span.length));
}

/** A heading's text as GitHub renders it: code, links, images, emphasis and HTML reduced to their text. */
function headingText(raw: string): string {
  return raw
    .replace(/\s+#+\s*$/, '') // closing hashes
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .replace(/(\*\*|__|\*|~~)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .trim();
}

/**
 * GitHub's anchor for a heading (github-slugger): lower case, every character that is not a letter,
 * a digit, a mark, `_`, `-` or a space dropped, each space a hyphen.
 */
export function slug(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * Every anchor a markdown file offers: its headings' slugs (ATX `#` and setext `===`/`---`), the
 * second of two equal ones `-1`, the third `-2`…, and the names of `<a id>`/`<a name>` elements.
 */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  const add = (heading: string) => {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  };
  const lines = markdownLines(markdown);
  lines.forEach((line, index) => {
    if (line.inCode) return;
    const atx = /^ {0,3}#{1,6}(?:\s+(.*))?$/.exec(line.text);
    if (atx) {
      add(atx[1] ?? '');
      return;
    }
    const next = lines[index + 1];
    const isParagraphLine =
      line.text.trim() !== '' && !/^ {0,3}([-*+>|]|\d+[.)])\s/.test(line.text) && !line.text.includes('|');
    if (next && !next.inCode && isParagraphLine && /^ {0,3}(=+|-+)\s*$/.test(next.text)) add(line.text.trim());
  });
  for (const match of markdown.matchAll(/<a\s[^>]*\b(?:id|name)\s*=\s*["']([^"']+)["']/gi)) {
    found.add(match[1] as string);
  }
  return found;
}

/** A link found in a markdown file: where it is and what it points to, as written. */
export interface Link {
  readonly line: number;
  readonly target: string;
}

/** Inline links and images, reference definitions, and `href`/`src` of HTML, outside code. */
export function links(markdown: string): Link[] {
  const found: Link[] = [];
  for (const { text, line, inCode } of markdownLines(markdown)) {
    if (inCode) continue;
    const plain = blankCodeSpans(text);
    // [text](target "title") and ![alt](target); the target may be <in angle brackets>.
    for (const match of plain.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g)) {
      found.push({ line, target: (match[1] as string).replace(/^<|>$/g, '') });
    }
    const definition = /^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(plain);
    if (definition) found.push({ line, target: (definition[1] as string).replace(/^<|>$/g, '') });
    for (const match of plain.matchAll(/<(?:a|img)\s[^>]*\b(?:href|src)\s*=\s*["']([^"']+)["']/gi)) {
      found.push({ line, target: match[1] as string });
    }
  }
  return found;
}

/** A link that leaves the repository (a scheme such as https: or mailto:, or //host). */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** What the link check needs of the repository: files by their path from the root. */
export interface Tree {
  /** 'file', 'dir', or null when nothing is there. */
  kind(path: string): 'file' | 'dir' | null;
  read(path: string): string;
}

/** Joins a repository path with a relative one ('docs/a.md' + '../README.md'); null if it leaves the root. */
export function resolvePath(fromFile: string, target: string): string | null {
  const parts = target.startsWith('/') ? [] : fromFile.split('/').slice(0, -1);
  for (const part of target.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/** The relative links of one markdown file that point to no file, or to no heading of their target. */
export function checkLinks(file: string, tree: Tree): Problem[] {
  const problems: Problem[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchorsOf = (path: string) => {
    let set = anchorCache.get(path);
    if (!set) {
      set = anchors(tree.read(path));
      anchorCache.set(path, set);
    }
    return set;
  };
  for (const { line, target } of links(tree.read(file))) {
    if (isExternal(target)) continue;
    const hashAt = target.indexOf('#');
    const rawPath = (hashAt === -1 ? target : target.slice(0, hashAt)).replace(/\?.*$/, '');
    const anchor = hashAt === -1 ? null : target.slice(hashAt + 1);
    let path: string | null;
    try {
      path = rawPath === '' ? file : resolvePath(file, decodeURIComponent(rawPath));
    } catch {
      problems.push({ file, line, message: `link "${target}": its path is not valid percent-encoding` });
      continue;
    }
    if (path === null || path === '') {
      problems.push({ file, line, message: `link "${target}" leaves the repository: link a file inside it` });
      continue;
    }
    const kind = tree.kind(path);
    if (kind === null) {
      problems.push({
        file,
        line,
        message: `link "${target}" points to ${path}, which does not exist: fix the path or remove the link`,
      });
      continue;
    }
    if (anchor === null || anchor === '') continue;
    if (kind === 'file' && path.endsWith('.md')) {
      const offered = anchorsOf(path);
      if (!offered.has(anchor.toLowerCase()) && !offered.has(anchor)) {
        problems.push({
          file,
          line,
          message: `link "${target}": ${path} has no heading #${anchor}${nearest(anchor, offered)}`,
        });
      }
    } else if (kind === 'file') {
      const lines = /^L(\d+)(?:-L(\d+))?$/.exec(anchor);
      const count = tree.read(path).replace(/\n$/, '').split('\n').length;
      if (!lines) {
        problems.push({
          file,
          line,
          message: `link "${target}": #${anchor} is not a line anchor (#L12 or #L12-L20) of ${path}`,
        });
      } else if (Number(lines[2] ?? lines[1]) > count) {
        problems.push({ file, line, message: `link "${target}": ${path} has only ${count} lines` });
      }
    }
  }
  return problems;
}

/** "; did you mean #x?" for the anchor closest to a missing one, or the list when nothing is close. */
function nearest(anchor: string, offered: Set<string>): string {
  const wanted = anchor.toLowerCase();
  let best: string | null = null;
  let bestScore = 0;
  for (const candidate of offered) {
    const score = commonPrefix(wanted, candidate) + (candidate.includes(wanted) || wanted.includes(candidate) ? 5 : 0);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  if (best !== null && bestScore >= 4) return `; did you mean #${best}?`;
  return `; its headings' anchors are: ${[...offered].slice(0, 20).join(', ')}${offered.size > 20 ? ', …' : ''}`;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return i;
}

/** A documented npm command: the script it runs and the workspace it names (-w/--workspace), if any. */
export interface NpmRun {
  readonly line: number;
  readonly script: string;
  readonly workspace: string | null;
  /** The command as written, for the message. */
  readonly command: string;
}

/**
 * Every `npm run <script>`, `npm test` and `npm start` in a text (code blocks and prose alike), with
 * `-w <workspace>` / `--workspace[=]<workspace>` before or after the script; arguments after `--`
 * belong to the script. `npm run <name>` with a placeholder in angle brackets is not a command.
 */
export function npmRuns(text: string): NpmRun[] {
  const found: NpmRun[] = [];
  text.split(/\r?\n/).forEach((content, index) => {
    const pattern =
      /\bnpm((?:\s+(?:-w|--workspace)(?:\s+|=)[^\s`'"|;&)]+)*)\s+(run(?:-script)?\s+([a-z0-9@][\w:.@/-]*)|test|start)\b([^`|;&)\n]*)/gi;
    for (const match of content.matchAll(pattern)) {
      const before = match[1] ?? '';
      const after = (match[4] ?? '').split(/\s--(?:\s|$)/)[0] ?? '';
      const script = match[3] ?? (match[2] as string);
      const flag = /(?:-w|--workspace)(?:\s+|=)([^\s`'"|;&)]+)/.exec(`${before} ${after}`);
      found.push({
        line: index + 1,
        script,
        workspace: flag ? (flag[1] as string) : null,
        command: match[0].trim(),
      });
    }
  });
  return found;
}

/** The variables a source reads: process.env.NAME, process.env['NAME'], import.meta.env.NAME, and ${NAME:-…} in shell. */
export function envReads(source: string): { name: string; line: number }[] {
  const found: { name: string; line: number }[] = [];
  source.split(/\r?\n/).forEach((content, index) => {
    const pattern =
      /\bprocess\.env(?:\.([A-Z][A-Z0-9_]*)\b|\[\s*['"]([A-Z][A-Z0-9_]*)['"]\s*\])|\bimport\.meta\.env\.(VITE_[A-Z0-9_]+)\b|\$\{([A-Z][A-Z0-9_]*):?[-=]/g;
    for (const match of content.matchAll(pattern)) {
      found.push({ name: (match[1] ?? match[2] ?? match[3] ?? match[4]) as string, line: index + 1 });
    }
  });
  return found;
}

/**
 * The rows of every markdown table whose first column is a variable in backticks (`` `PORT` ``): the
 * configuration tables. Tables whose first column holds anything else are not counted.
 */
export function configTableRows(markdown: string): { name: string; line: number }[] {
  const rows: { name: string; line: number }[] = [];
  const lines = markdownLines(markdown);
  let table: { name: string; line: number }[] | null = null;
  let isConfig = true;
  const close = () => {
    if (table && isConfig && table.length > 0) rows.push(...table);
    table = null;
    isConfig = true;
  };
  lines.forEach((line, index) => {
    const isRow = !line.inCode && /^\s*\|.*\|\s*$/.test(line.text);
    if (!isRow) {
      close();
      return;
    }
    const separator = /^\s*\|(\s*:?-+:?\s*\|)+\s*$/.test(line.text);
    if (table === null) {
      // A table starts with its header row, followed by the separator row.
      const next = lines[index + 1];
      if (!next || !/^\s*\|(\s*:?-+:?\s*\|)+\s*$/.test(next.text)) return;
      table = [];
      return;
    }
    if (separator) return;
    const first = line.text.split('|')[1]?.trim() ?? '';
    const variable = /^`([A-Z][A-Z0-9_]*)`$/.exec(first);
    if (variable) table.push({ name: variable[1] as string, line: line.line });
    else isConfig = false;
  });
  close();
  return rows;
}

/**
 * Citations of documents outside the repository, in any case: the design notes' sections and file,
 * an issue by its number, the spec's sections. Built from parts so this file does not cite them itself.
 */
const CITATION = new RegExp(
  [`${'DESIGN'}\\s*\u00a7`, `${'DESIGN'}\\.md`, `\\b${'issue'}s?\\s+#?\\d+`, `the\\s+spec['\u2019]s\\s+\u00a7`].join(
    '|',
  ),
  'gi',
);

/** Each citation of a document outside the repository in a text, with its line. */
export function citations(text: string): { line: number; cited: string }[] {
  const found: { line: number; cited: string }[] = [];
  text.split(/\r?\n/).forEach((content, index) => {
    for (const match of content.matchAll(CITATION)) found.push({ line: index + 1, cited: match[0] });
  });
  return found;
}
