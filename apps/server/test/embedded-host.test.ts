/**
 * The start's look at a postmaster left behind: a killed one that is not yet reaped (a zombie) still
 * answers kill(pid, 0), and PostgreSQL would take it for a running postmaster; the start waits for it
 * to be reaped (a loaded run once found the socket's lock file "in use" after a SIGKILL).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it, vi } from 'vitest';
import { alive, isZombie, reaped } from '../src/db/embedded-host.ts';

it('takes a killed, unreaped process for a zombie and waits until it is reaped', async () => {
  // sh starts a child that exits a second later, and at once becomes `sleep`, which never reaps it.
  // (A child that exited before the exec could be reaped by sh itself: a CI run once saw no zombie.)
  const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const [line] = (await once(parent.stdout, 'data')) as [Buffer];
  const pid = Number(line.toString().trim());
  await vi.waitFor(() => expect(isZombie(pid)).toBe(true), { timeout: 10_000, interval: 50 });
  expect(alive(pid)).toBe(true);
  expect(isZombie(process.pid)).toBe(false);
  // Its parent gone, the zombie passes to init, which reaps it.
  parent.kill('SIGKILL');
  await reaped(pid);
  expect(alive(pid)).toBe(false);
  expect(isZombie(pid)).toBe(false);
});
