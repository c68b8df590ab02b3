/**
 * The result screen: Victory with confetti, or Game Over / AI Victory,
 * and right under the title the way on: Play Again (Challenge AI Again), Play now, Dashboard, the replay. Then
 * the game summary, the player's own performance and final position, a Human vs AI block in bot
 * games and the final ranking. Someone who only watched gets the ranking first, the game's own
 * figures, and no Play Again.
 */
import { GAME_TEXTS, MATCHMAKING_TEXTS } from '@memeslam/protocol';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Ranking } from './result/Ranking.tsx';
import { type Counters, OUTCOME_TITLES, endLine, gameSummary, humanVsAi, outcomeOf } from './result/summary.ts';
import { useConfetti } from './result/useConfetti.ts';
import { useRecordedRatings } from './result/useRecordedRatings.ts';
import type { GameResult } from './state.ts';
import type { Rematch } from './result/useRematch.ts';
import { REMATCH_TEXTS } from './texts.ts';

interface Props {
  /** How the game ended: from gameEnded as it happens, or GET /game/:id/result afterwards. */
  readonly ended: GameResult;
  /** The viewer's player id (null: nobody in particular). */
  readonly me: string | null;
  readonly isBotGame: boolean;
  /** This client's move counters (all 0 for a result read afterwards: the results' counts are used). */
  readonly counters: Counters;
  onPlayAgain(): void;
  /** Play now: the dashboard, searching at once. */
  onPlayNow(): void;
  onDashboard(): void;
  /** A game between people: its rematch (useRematch). */
  readonly rematch?: Rematch | undefined;
}

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-lg border border-edge bg-ink/60 px-3 py-2 text-center">
      <dt className="text-xs uppercase tracking-wide text-muted">{label}</dt>
      <dd className="text-xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-xl border border-edge bg-panel p-4">
      <h2 className="mb-3 font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * Rematch for the players of a game between people, Play Again (Challenge AI Again) for the players,
 * Play now, Dashboard and the replay for everyone.
 */
function NextSteps({
  isBotGame,
  player,
  gameId,
  onPlayAgain,
  onPlayNow,
  onDashboard,
  rematch,
}: {
  isBotGame: boolean;
  player: boolean;
  gameId: string;
  onPlayAgain(): void;
  onPlayNow(): void;
  onDashboard(): void;
  rematch: Rematch | null;
}) {
  return (
    <nav aria-label="Next steps" className="mt-4 flex flex-wrap justify-center gap-3">
      {rematch && (
        <button
          type="button"
          onClick={() => void rematch.start()}
          disabled={rematch.busy}
          className="rounded-lg bg-gold px-5 py-2 font-semibold text-ink disabled:opacity-50"
        >
          {rematch.offer ? REMATCH_TEXTS.joinRematch : REMATCH_TEXTS.rematch}
        </button>
      )}
      {player && (
        <button type="button" onClick={onPlayAgain} className="rounded-lg bg-brand px-5 py-2 font-semibold text-white">
          {isBotGame ? GAME_TEXTS.challengeAiAgain : GAME_TEXTS.playAgain}
        </button>
      )}
      <button
        type="button"
        onClick={onPlayNow}
        className="rounded-lg border border-gold px-5 py-2 font-semibold text-gold"
      >
        {MATCHMAKING_TEXTS.playNow}
      </button>
      <button type="button" onClick={onDashboard} className="rounded-lg border border-edge px-5 py-2 font-semibold">
        Dashboard
      </button>
      <Link to={`/game/${gameId}/replay`} className="rounded-lg border border-edge px-5 py-2 font-semibold">
        View replay
      </Link>
    </nav>
  );
}

export function ResultScreen({ ended, me, isBotGame, counters, onPlayAgain, onPlayNow, onDashboard, rematch }: Props) {
  const outcome = outcomeOf(ended, me);
  const results = useRecordedRatings(ended, isBotGame);
  useConfetti(outcome === 'victory', isBotGame);

  const summary = gameSummary(ended, me);
  const versus = isBotGame ? humanVsAi(ended.results, counters, ended.durationMs) : null;
  const won = outcome === 'victory';
  const mine = summary.mine;
  // Someone who watched: the ranking comes first, and nothing of a game they did not play.
  const spectator = mine === null;
  // A rematch is for the players of a game between people (two or more of them).
  const people = ended.results.filter((result) => !result.isBot).length;
  const offered = !spectator && people >= 2 && rematch ? rematch : null;
  const ranking = (
    <Section title="Final Ranking">
      <Ranking results={results} me={me} />
    </Section>
  );

  return (
    <main className="mx-auto max-w-3xl space-y-4 px-4 py-5 md:py-8" aria-label="Game result">
      <header className="text-center">
        <h1 className={`text-3xl font-extrabold md:text-4xl ${won ? 'text-gold' : ''}`}>{OUTCOME_TITLES[outcome]}</h1>
        <p className="mt-1 text-muted">
          {spectator && 'You watched this game. '}
          {endLine(ended, outcome)}
        </p>
        {offered?.offer && (
          <p role="status" className="mt-3 font-semibold text-gold">
            {REMATCH_TEXTS.offered(offered.offer.by.username)}
          </p>
        )}
        {/* The way on comes first, so it shows without scrolling on any screen. */}
        <NextSteps
          isBotGame={isBotGame}
          player={!spectator}
          gameId={ended.gameId}
          onPlayAgain={onPlayAgain}
          onPlayNow={onPlayNow}
          onDashboard={onDashboard}
          rematch={offered}
        />
      </header>

      {spectator && ranking}

      <Section title="Game Summary">
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          <Stat label="Time" value={summary.time} />
          <Stat label="Cards Played" value={summary.cardsPlayed} />
          <Stat label="Cards/sec" value={summary.cardsPerSecond} />
          {spectator ? (
            <Stat label="Players" value={ended.results.length} />
          ) : (
            <Stat label="Place" value={summary.place} />
          )}
        </dl>
      </Section>

      {mine && (
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <Section title="Your Performance">
            <dl className="grid grid-cols-3 gap-2">
              <Stat label="Cards Left" value={mine.cardsLeft} />
              <Stat label="Power-ups Used" value={mine.powerUpsUsed} />
              <Stat label="Points" value={mine.points} />
            </dl>
          </Section>
          <Section title="Final Position">
            <p className="text-center text-3xl font-extrabold text-gold">{summary.place}</p>
          </Section>
        </div>
      )}

      {versus && (
        <Section title="Human vs AI">
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            <Stat label="Humans" value={versus.humans} />
            <Stat label="Bots" value={versus.bots} />
            <Stat label="Moves/sec" value={versus.movesPerSecond} />
            <Stat label="H:B Score" value={versus.score} />
          </dl>
          <div className="mt-3">
            <div
              className="flex h-3 overflow-hidden rounded-full bg-ink"
              role="img"
              aria-label={`Moves: humans ${versus.humanShare}%, bots ${versus.botShare}%`}
            >
              <div className="bg-brand" style={{ width: `${versus.humanShare}%` }} />
              <div className="bg-gold" style={{ width: `${versus.botShare}%` }} />
            </div>
            <p className="mt-1 flex justify-between text-sm text-muted">
              <span>Humans {versus.humanShare}%</span>
              <span>Bots {versus.botShare}%</span>
            </p>
          </div>
        </Section>
      )}

      {!spectator && ranking}
    </main>
  );
}
