/**
 * Setup file of every project: files run one after another in a shared worker (vitest.config.ts,
 * `isolate: false`), so a file that leaves the timers faked or replaced (a spy on a fake setTimeout
 * put back after the real ones) would make the next file's real waits hang until its timeout. Each
 * file checks on its start that the timers are still the ones the worker began with, and fails at
 * once, saying so, when they are not.
 */
const REAL = Symbol.for('memeslam.workerTimers');
const current = { setTimeout, clearTimeout, setInterval, clearInterval, setImmediate, clearImmediate, Date };
type Timers = typeof current;
const holder = globalThis as typeof globalThis & { [REAL]?: Timers };
const real = (holder[REAL] ??= current);
const replaced = (Object.keys(real) as (keyof Timers)[]).filter((name) => current[name] !== real[name]);
if (replaced.length > 0) {
  throw new Error(
    `${replaced.join(', ')} ${replaced.length === 1 ? 'is' : 'are'} not the worker's own: a file that ran ` +
      'before this one in the same worker left the timers faked or replaced',
  );
}
