/**
 * Every package a workspace's files import is declared in that workspace's package.json, so a
 * workspace installs and runs on its own and an upgrade of one never removes what another relied on
 * by accident of npm's hoisting. The root's shared test tools (TEST_TOOLS, root devDependencies) are
 * the one exception: every workspace's tests use them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const TEST_TOOLS = new Set(['vitest', 'fast-check', 'typescript']);
const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', 'test-results']);

interface Manifest {
  readonly name?: string;
  readonly workspaces?: string[];
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

function sourceFiles(dir: string, skip: ReadonlySet<string> = new Set()): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !(entry.name.startsWith('.') && entry.name !== '.ci') && !skip.has(path)) {
        files.push(...sourceFiles(path, skip));
      }
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      files.push(path);
    }
  }
  return files;
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or null for a relative or built-in one. */
export function packageOf(specifier: string): string | null {
  const bare = specifier.split('?')[0] ?? '';
  if (bare === '' || bare.startsWith('.') || bare.startsWith('/') || bare.startsWith('node:')) return null;
  if (bare.startsWith('virtual:') || builtinModules.includes(bare)) return null;
  const parts = bare.split('/');
  return bare.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? null);
}

/** `file: package` for each package a workspace's files import without declaring it. */
function undeclared(dir: string, files: readonly string[]): string[] {
  const own = manifest(dir);
  const declared = new Set([
    ...Object.keys(own.dependencies ?? {}),
    ...Object.keys(own.devDependencies ?? {}),
    ...Object.keys(own.optionalDependencies ?? {}),
    ...Object.keys(own.peerDependencies ?? {}),
  ]);
  const missing: string[] = [];
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      const pkg = packageOf(fileName);
      if (pkg === null || pkg === own.name || declared.has(pkg) || TEST_TOOLS.has(pkg)) continue;
      missing.push(`${relative(ROOT, file)}: ${pkg}`);
    }
  }
  return missing;
}

const root = manifest(ROOT);
const workspaces = (root.workspaces ?? []).map((w) => join(ROOT, w));

describe('imported packages', () => {
  it('finds the workspaces and their sources', () => {
    expect(workspaces.length).toBeGreaterThan(3);
    for (const dir of workspaces) expect(sourceFiles(dir).length, relative(ROOT, dir)).toBeGreaterThan(0);
  });

  it.each(workspaces.map((dir) => [relative(ROOT, dir), dir]))('%s declares every package it imports', (_name, dir) => {
    expect(undeclared(dir, sourceFiles(dir))).toEqual([]);
  });

  it("the root's own files (configs, .ci) declare theirs in the root package.json", () => {
    const files = sourceFiles(ROOT, new Set(workspaces)).filter((file) => !relative(ROOT, file).startsWith('data'));
    expect(undeclared(ROOT, files)).toEqual([]);
  });

  it('tells a bare import from a relative or built-in one', () => {
    expect(packageOf('socket.io-adapter')).toBe('socket.io-adapter');
    expect(packageOf('@memeslam/protocol/texts')).toBe('@memeslam/protocol');
    expect(packageOf('fastify/types/instance')).toBe('fastify');
    expect(packageOf('./local.ts')).toBeNull();
    expect(packageOf('node:fs')).toBeNull();
    expect(packageOf('fs')).toBeNull();
  });

  it('TEST_TOOLS are what the root declares', () => {
    for (const tool of TEST_TOOLS) expect(Object.keys(root.devDependencies ?? {})).toContain(tool);
  });
});
