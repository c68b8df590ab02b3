/** The child-process stop and reaper the cluster helpers and bench share (helpers/children.ts). */
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { reapOnExit, running, stopChild } from './helpers/children.ts';

/** A node child that prints "up" once its SIGTERM handler is set. */
function child(onTerm: 'exit' | 'ignore') {
  const code =
    onTerm === 'exit'
      ? "process.on('SIGTERM', () => process.exit(0)); console.log('up'); setInterval(() => {}, 1000);"
      : "process.on('SIGTERM', () => {}); console.log('up'); setInterval(() => {}, 1000);";
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  reapOnExit(proc);
  const up = new Promise<void>((resolve) => proc.stdout.once('data', () => resolve()));
  return { proc, up };
}

it('stops a child with SIGTERM when it heeds it', async () => {
  const { proc, up } = child('exit');
  await up;
  await stopChild(proc, 60_000);
  expect(running(proc)).toBe(false);
  expect(proc.exitCode).toBe(0);
});

it('SIGKILLs a child that ignores SIGTERM once the grace is over', async () => {
  const { proc, up } = child('ignore');
  await up;
  await stopChild(proc, 200);
  expect(proc.signalCode).toBe('SIGKILL');
  await stopChild(proc); // already gone: returns at once
});
