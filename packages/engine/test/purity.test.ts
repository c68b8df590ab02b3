/**
 * The engine is pure: no import but its own relative modules, no clock, no Math.random, no
 * timers, no process, console, performance, fetch or require. Scans packages/engine/src/*.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');
const FORBIDDEN = new Set([
  'Date',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'process',
  'console',
  'performance',
  'fetch',
  'require',
]);

/** Every purity problem of one source file, as "line: what". */
function impurities(fileName: string, text: string, dir: string = SRC): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const problems: string[] = [];
  const at = (node: ts.Node): number => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;

  const checkSpecifier = (node: ts.Node, specifier: ts.Expression | undefined): void => {
    if (!specifier) return;
    if (!ts.isStringLiteralLike(specifier)) {
      problems.push(`${at(node)}: import of a computed module`);
      return;
    }
    const target = resolve(dir, specifier.text);
    const inside = !relative(dir, target).startsWith('..');
    if (!specifier.text.startsWith('./') && !specifier.text.startsWith('../')) {
      problems.push(`${at(node)}: non-relative import "${specifier.text}"`);
    } else if (!inside) {
      problems.push(`${at(node)}: import from outside the engine "${specifier.text}"`);
    }
  };

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      checkSpecifier(node, node.moduleSpecifier);
    } else if (ts.isImportEqualsDeclaration(node)) {
      problems.push(`${at(node)}: import = require`);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      checkSpecifier(node, ts.isLiteralTypeNode(arg) ? (arg.literal as ts.Expression) : undefined);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      checkSpecifier(node, node.arguments[0]);
    } else if (ts.isIdentifier(node) && FORBIDDEN.has(node.text)) {
      const parent = node.parent;
      const isMemberName =
        (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
        ((ts.isPropertyAssignment(parent) ||
          ts.isPropertySignature(parent) ||
          ts.isPropertyDeclaration(parent) ||
          ts.isMethodDeclaration(parent)) &&
          parent.name === node);
      if (!isMemberName) problems.push(`${at(node)}: uses ${node.text}`);
    } else if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'Math' &&
      node.name.text === 'random'
    ) {
      problems.push(`${at(node)}: uses Math.random`);
    } else if (
      ts.isElementAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'Math' &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      node.argumentExpression.text === 'random'
    ) {
      problems.push(`${at(node)}: uses Math.random`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

describe('engine purity', () => {
  const files = readdirSync(SRC).filter((f) => f.endsWith('.ts'));

  it('scans the whole engine', () => {
    expect(files).toEqual(expect.arrayContaining(['apply.ts', 'advance.ts', 'bots.ts', 'deal.ts', 'index.ts']));
  });

  for (const file of files) {
    it(`${file} imports only its own modules and touches no clock, randomness or I/O`, () => {
      expect(impurities(file, readFileSync(join(SRC, file), 'utf8'))).toEqual([]);
    });
  }

  it('the scanner catches every kind of impurity', () => {
    const bad = [
      "import { z } from 'zod';",
      "import type { X } from '@memeslam/protocol';",
      "export * from 'node:fs';",
      "import { y } from '../../apps/server/src/x.ts';",
      "const fs = await import('node:fs');",
      'type T = import("node:fs").Stats;',
      'const now = Date.now();',
      'const r = Math.random();',
      "const r2 = Math['random']();",
      'setTimeout(() => 0, 1);',
      'setInterval(() => 0, 1);',
      'const env = process.env;',
      "console.log('x');",
      'const t = performance.now();',
      "void fetch('x');",
      "const m = require('m');",
    ].join('\n');
    expect(impurities('bad.ts', bad)).toHaveLength(16);
    // Names of members and properties are not uses of the globals.
    const fine = [
      "import { a } from './a.ts';",
      'const o = { process: 1, console: 2 };',
      'const p = o.process + o.console;',
      'interface I { readonly fetch: number; }',
      '// Date, Math.random() and setTimeout in a comment',
      "const s = 'process console Date';",
    ].join('\n');
    expect(impurities('fine.ts', fine)).toEqual([]);
  });
});

/** The modules each engine file imports at run time (type-only imports leave no trace in the output). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(SRC, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    if (ts.isImportDeclaration(statement) && statement.importClause?.isTypeOnly) continue;
    if (ts.isExportDeclaration(statement) && statement.isTypeOnly) continue;
    const specifier = statement.moduleSpecifier;
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('./')) {
      found.push(specifier.text.slice(2));
    }
  }
  return found;
}

/** One import circle among `files` as "a.ts → b.ts → a.ts", or null. */
function findCircle(graph: ReadonlyMap<string, readonly string[]>): string | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): string | null => {
    if (state.get(file) === 'done') return null;
    if (state.get(file) === 'open') return [...path.slice(path.indexOf(file)), file].join(' → ');
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    state.set(file, 'done');
    return null;
  };
  for (const file of graph.keys()) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return null;
}

describe('engine modules', () => {
  it('import one another without a circle', () => {
    const files = readdirSync(SRC).filter((f) => f.endsWith('.ts'));
    expect(findCircle(new Map(files.map((f) => [f, runtimeImports(f)])))).toBeNull();
  });

  it('the circle finder finds a circle', () => {
    expect(
      findCircle(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['c.ts']],
          ['c.ts', ['a.ts']],
        ]),
      ),
    ).toBe('a.ts → b.ts → c.ts → a.ts');
    expect(
      findCircle(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', []],
        ]),
      ),
    ).toBeNull();
  });
});
