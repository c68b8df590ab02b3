// npm run chaos:cluster [-- --minutes 30 --seed 7]
//
// The cluster chaos run of apps/server/test/cluster-chaos.test.ts, as long as asked: three real nodes,
// a Redis and a PostgreSQL of its own, faults one after another in the seed's order (SIGKILL, SIGTERM,
// a pause past the lease, Redis killed, the database's connections terminated, the database away for
// 20 s, two faults at once), then the invariants checked and printed. Exit code 0 when they all held.
// Needs redis-server; the PostgreSQL is the test setup's embedded one.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from './stats.ts';

const args = parseArgs(process.argv.slice(2));
const minutes = Number(args.get('minutes') ?? '5');
const seed = args.get('seed') ?? String(Date.now() % 1_000_000);
if (!Number.isFinite(minutes) || minutes <= 0 || !/^\d+$/.test(seed)) {
  console.error('usage: npm run chaos:cluster -- [--minutes 30] [--seed 7]');
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..', '..');
console.log(`chaos:cluster: seed ${seed}, ${minutes} min of faults`);
const result = spawnSync(
  join(root, 'node_modules', '.bin', 'vitest'),
  ['run', '--project', 'server', 'apps/server/test/cluster-chaos.test.ts'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, CHAOS_SEED: seed, CHAOS_SECONDS: String(Math.round(minutes * 60)) },
  },
);
process.exit(result.status ?? 1);
