/**
 * The cluster's own chaos run: a seeded plan of faults against three real nodes while
 * players play, and the invariants checked (helpers/chaos.ts). Short here (every fault kind once:
 * about 80 s); `npm run chaos:cluster -- --minutes 30 --seed N` runs it long, and a
 * failing seed runs the same plan of faults again (the players' timing is the machine's).
 */
import { describe, expect, it } from 'vitest';
import { runChaos } from './helpers/chaos.ts';
import { clusterSkipReason } from './helpers/cluster.ts';
import { adminUrl } from './helpers/databases.ts';

const skip = clusterSkipReason({ front: false, ownRedis: true, sharedRedis: false });
const seed = Number(process.env.CHAOS_SEED ?? 20261126);
const seconds = Number(process.env.CHAOS_SECONDS ?? 30);

describe.skipIf(skip !== null)('cluster chaos', () => {
  it(
    `seed ${seed}: nothing acknowledged lost, one unfinished game per user, one record per game, every request answered`,
    async () => {
      const report = await runChaos({ seed, seconds, adminUrl: adminUrl(), log: (line) => console.log(line) });
      console.log(
        [
          `[chaos] seed ${report.seed}: ${report.faults.length} faults (${report.faults.map((f) => f.kind).join(', ')}), ${report.acknowledgedPlays} acknowledged plays, ${report.requests} requests`,
          ...report.checks.map((c) => `[chaos] ${c.ok ? 'held' : 'BROKEN'}: ${c.name} — ${c.detail}`),
        ].join('\n'),
      );
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    },
    (seconds + 120) * 1000,
  );
});
