/**
 * The child processes a test or a benchmark starts (server nodes, Redis, nginx): the one polite stop
 * (SIGTERM, then SIGKILL if the child has not exited after a grace) and the last-resort reaper (a child
 * still alive when this process exits is SIGKILLed then). Used by the cluster helpers here and in bench/.
 */
import type { ChildProcess } from 'node:child_process';

/** How long a child has to exit after SIGTERM before it is SIGKILLed. */
export const STOP_GRACE_MS = 10_000;

const alive = new Set<ChildProcess>();
let reaperInstalled = false;

/** Whether the child is still running (it has neither exited nor been ended by a signal). */
export function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Tracks the child: if it is still alive when this process exits, it is SIGKILLed then. */
export function reapOnExit(child: ChildProcess): void {
  if (!reaperInstalled) {
    reaperInstalled = true;
    process.once('exit', () => {
      for (const c of alive) c.kill('SIGKILL');
    });
  }
  alive.add(child);
  child.once('exit', () => alive.delete(child));
}

/** SIGTERM, and SIGKILL if the child has not exited `graceMs` later; resolves once it has exited. */
export async function stopChild(child: ChildProcess, graceMs = STOP_GRACE_MS): Promise<void> {
  if (!running(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}
