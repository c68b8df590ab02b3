/**
 * /game/:id/replay: loads a finished game's replay and checks its fairness in the browser:
 * the revealed seed hashes to the commitment published at deal time, and re-running the engine from
 * the config and the timestamped commands reproduces a finished game. Then the game can be stepped
 * through, and the final ranking read.
 */
import type { Replay as ReplayData } from '@memeslam/protocol';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, api } from '../api/http.ts';
import { Icon } from '../components/Icon.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { formatElapsed } from '../game/clock.ts';
import { Ranking } from '../game/result/Ranking.tsx';
import { ReplayViewer } from '../game/result/ReplayViewer.tsx';
import { commitmentMatches } from '../game/result/fairness.ts';
import { runReplay } from '../game/result/replaySteps.ts';

function Verification({ replay, problems }: { replay: ReplayData; problems: readonly string[] }) {
  const commitment = useQuery({
    queryKey: ['replay-commitment', replay.seed, replay.seedCommitment],
    queryFn: () => commitmentMatches(replay.seed, replay.seedCommitment),
  });
  if (commitment.isPending) return <p className="text-muted">Checking the seed…</p>;
  const failures = [...(commitment.data ? [] : ['The seed does not hash to the published commitment.']), ...problems];
  const ok = failures.length === 0;
  return (
    <section
      aria-label="Fairness"
      className={`rounded-xl border p-4 ${ok ? 'border-green-600 bg-green-950/40' : 'border-red-600 bg-red-950/40'}`}
    >
      <h2 className="flex items-center gap-2 font-semibold">
        <Icon name={ok ? 'check' : 'cross'} className={`size-5 ${ok ? 'text-green-400' : 'text-red-400'}`} />
        {ok ? 'Seed verified' : 'Verification failed'}
      </h2>
      {ok ? (
        <p className="mt-1 text-sm text-muted">
          SHA-256 of the seed matches the commitment published when the cards were dealt, and re-running the engine with
          the {replay.commands.length} recorded commands reproduces the game.
        </p>
      ) : (
        <ul role="alert" className="mt-1 list-disc pl-5 text-sm">
          {failures.map((failure) => (
            <li key={failure}>{failure}</li>
          ))}
        </ul>
      )}
      <dl className="mt-2 grid gap-1 break-all font-mono text-xs text-muted sm:grid-cols-[auto_1fr] sm:gap-x-3">
        <dt>Seed</dt>
        <dd>{replay.seed}</dd>
        <dt>Commitment</dt>
        <dd>{replay.seedCommitment}</dd>
      </dl>
    </section>
  );
}

function ReplayBody({ replay }: { replay: ReplayData }) {
  const run = useMemo(() => runReplay(replay), [replay]);
  return (
    <>
      <Verification replay={replay} problems={run.problems} />
      {run.steps.length > 0 && <ReplayViewer steps={run.steps} />}
      {run.result && (
        <section aria-label="Final ranking" className="rounded-xl border border-edge bg-panel p-4">
          <h2 className="mb-3 font-semibold">
            Final Ranking <span className="text-sm text-muted">· {formatElapsed(run.result.durationMs)}</span>
          </h2>
          <Ranking results={run.result.ranking} me={null} />
        </section>
      )}
    </>
  );
}

export function Replay() {
  const { id = '' } = useParams();
  const query = useQuery({
    queryKey: ['replay', id],
    queryFn: async () => (await api('replay', { id, quiet: true })).data,
  });

  let body;
  if (query.isPending) body = <Spinner label="Loading replay" />;
  else if (query.error) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    body = (
      <div role="alert" className="rounded-xl border border-edge bg-panel p-6 text-center">
        <h2 className="text-xl font-semibold">{notFound ? 'Game not found' : 'Failed to load replay'}</h2>
        <p className="mt-2 text-muted">
          {notFound
            ? 'There is no finished game with this id, or its replay was not kept.'
            : query.error.message || 'Please try again.'}
        </p>
        {!notFound && (
          <button type="button" onClick={() => void query.refetch()} className="mt-4 rounded-lg bg-brand px-4 py-2">
            Try Again
          </button>
        )}
      </div>
    );
  } else body = <ReplayBody replay={query.data} />;

  return (
    <main className="mx-auto max-w-4xl space-y-4 px-4 py-8">
      <div className="flex items-center justify-between">
        <h1 className="text-3xl font-bold">Game Replay</h1>
        <Link to="/dashboard" className="flex items-center gap-1 text-sm text-muted hover:text-white">
          <Icon name="back" className="size-4" />
          Dashboard
        </Link>
      </div>
      {body}
    </main>
  );
}
