/**
 * /game/:id and /game/room/:roomCode: finds the game (by room code, or by id through GET
 * /api/game/:id), makes sure this socket is in it — a member is re-seated, anyone else watches if
 * the host allows spectators — and shows what its status calls for: loading, the countdown, the
 * game, or the result.
 */
import type { GameResultData } from '@memeslam/protocol';
import { MISSING_STATE_FALLBACK_MS, ROOM_CODE_ALPHABET, ROOM_CODE_LENGTH } from '@memeslam/protocol/constants';
import { DASHBOARD_TEXTS } from '@memeslam/protocol/texts';
import { GAME_TEXTS, LOBBY_TEXTS } from '@memeslam/protocol/game-texts';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { api } from '../api/http.ts';
import { useSession } from '../auth/session.ts';
import { Spinner } from '../components/Spinner.tsx';
import { CountdownOverlay } from '../game/CountdownOverlay.tsx';
import { LeaveDialog } from '../game/GameDialogs.tsx';
import { GameScreen } from '../game/GameScreen.tsx';
import { ackError, commands, liveGame, useLiveGame } from '../game/live.ts';
import { ResultScreen } from '../game/ResultScreen.tsx';
import { PLAY_NOW_STATE } from '../dashboard/PlayNow.tsx';
import { useRematch } from '../game/result/useRematch.ts';
import { type Game, isMember } from '../game/state.ts';
import { useGameToasts } from '../game/useGameToasts.ts';
import { connect } from '../realtime/socket.ts';

const ROOM_CODE = new RegExp(`^[${ROOM_CODE_ALPHABET}]{${ROOM_CODE_LENGTH}}$`);

/** How long leaving waits for the game it ended to be recorded, and how often it looks. */
const RECORD_WAIT_MS = 5000;
const RECORD_POLL_MS = 150;

/**
 * Resolves once the game is in this user's history (recorded with its stats, in one statement on
 * the server, a few ms after it ends), or after RECORD_WAIT_MS, or at the first failed look.
 */
async function recorded(gameId: string): Promise<void> {
  const until = Date.now() + RECORD_WAIT_MS;
  while (Date.now() < until) {
    try {
      const { data } = await api('gameHistory', { query: { limit: 1 }, quiet: true });
      if (data.games.some((game) => game.gameId === gameId)) return;
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, RECORD_POLL_MS));
  }
}

function matchesGame(key: string, game: { gameId: string; roomCode: string } | null): boolean {
  return game !== null && (game.gameId === key || game.roomCode === key.toUpperCase());
}

/** A finished game's result, from the database (the room is gone, or no longer takes joins), or null. */
async function storedResult(key: string): Promise<GameResultData | null> {
  try {
    return (await api('gameResult', { id: key, quiet: true })).data;
  } catch {
    return null;
  }
}

/**
 * Resolves the route's key to a room code and joins (or rejoins, or watches) that game. A game that
 * has ended can no longer be joined: its result is read instead, so a reload or a later visit still
 * shows it.
 */
function useEnterGame(key: string): { error: string | null; stored: GameResultData | null } {
  const [error, setError] = useState<string | null>(null);
  const [stored, setStored] = useState<GameResultData | null>(null);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        await connect();
      } catch (failure) {
        if (!cancelled) setError(failure instanceof Error ? failure.message : GAME_TEXTS.anErrorOccurred);
        return;
      }
      const now = liveGame.get();
      if (matchesGame(key, now.game) && now.status !== 'idle' && (now.dealt || now.status !== 'active')) return;
      let roomCode = key.toUpperCase();
      if (!ROOM_CODE.test(roomCode)) {
        try {
          roomCode = (await api('getGame', { id: key, quiet: true })).data.game.roomCode;
        } catch {
          if (!cancelled) setError(DASHBOARD_TEXTS.gameNotAvailable);
          return;
        }
      }
      const ack = await commands.join(roomCode);
      if (cancelled || ack.success) return;
      const finished = await storedResult(key);
      if (cancelled) return;
      if (finished) setStored(finished);
      else setError(ackError(ack, LOBBY_TEXTS.failedToJoinGame));
    })();
    return () => {
      cancelled = true;
    };
  }, [key]);
  return { error, stored };
}

/** A result read afterwards has no live move counters: the screen counts from the results. */
const NO_COUNTERS = { cardsPlayed: 0, humanMoves: 0, botMoves: 0 };

export function GamePage() {
  const params = useParams();
  const key = params.roomCode ?? params.id ?? '';
  const navigate = useNavigate();
  const state = useLiveGame();
  const { error, stored } = useEnterGame(key);
  const rematch = useRematch(stored?.result.gameId ?? state.ended?.gameId ?? null);
  const { user } = useSession();
  const [leaving, setLeaving] = useState(false);
  useGameToasts(state.me);

  const here = matchesGame(key, state.game);
  const status = here ? state.status : 'idle';
  const isBotGame = state.game?.isBotGame ?? false;

  // A game still in its lobby belongs on the waiting-room page.
  useEffect(() => {
    if (here && status === 'waiting' && state.game) navigate(`/lobby/${state.game.roomCode}`, { replace: true });
  }, [here, status, state.game, navigate]);

  // Missing state two seconds in: ask the server for the whole view again.
  const dealt = state.dealt || !isMember(state);
  const resynced = useRef(false);
  useEffect(() => {
    if (status !== 'active' || (state.view && dealt) || resynced.current) return;
    const timer = setTimeout(() => {
      resynced.current = true;
      void commands.resync();
    }, MISSING_STATE_FALLBACK_MS);
    return () => clearTimeout(timer);
  }, [status, state.view, dealt]);

  async function leave() {
    setLeaving(false);
    const gameId = state.game?.gameId;
    if (isMember(state) && (status === 'active' || status === 'starting')) {
      const { ended } = await commands.stopAllBots('returnToDashboard');
      // Leaving counts as a loss: when it ended the game, let its record land before the
      // dashboard reads the counts.
      if (ended && gameId) await recorded(gameId);
    } else {
      commands.reset();
    }
    navigate('/dashboard');
  }

  async function playAgain(game: Game | null) {
    if (!game?.isBotGame || !game.botSettings) {
      commands.reset();
      navigate('/lobby');
      return;
    }
    const ack = await commands.createBotGame({
      numberOfBots: game.botSettings.numberOfBots,
      botDifficulty: game.botSettings.difficulty,
      maxPlayers: game.maxPlayers,
      gameSpeed: game.gameSettings.gameSpeed,
      cardsPerPlayer: game.gameSettings.cardsPerPlayer,
      autoStart: true,
    });
    if (ack.success && ack.data) navigate(`/lobby/${ack.data.roomCode}`);
    else toast.error(ackError(ack, LOBBY_TEXTS.failedToCreateBotGame));
  }

  if (stored && !here) {
    return (
      <ResultScreen
        ended={stored.result}
        me={user?.id ?? null}
        isBotGame={stored.game.isBotGame}
        counters={NO_COUNTERS}
        onPlayAgain={() => void playAgain(stored.game)}
        onPlayNow={() => navigate('/dashboard', { state: PLAY_NOW_STATE })}
        onDashboard={() => navigate('/dashboard')}
        rematch={rematch}
      />
    );
  }

  if (error && !here) {
    return (
      <main className="mx-auto max-w-md px-4 py-16 text-center">
        <h1 className="text-2xl font-bold">{DASHBOARD_TEXTS.gameNotAvailable}</h1>
        <p role="alert" className="mt-2 text-muted">
          {error}
        </p>
        <div className="mt-6 flex justify-center gap-3">
          <Link to="/dashboard" className="rounded-lg bg-brand px-4 py-2 font-semibold">
            Dashboard
          </Link>
          <Link to={`/game/${key}/replay`} className="rounded-lg border border-edge px-4 py-2">
            View replay
          </Link>
        </div>
      </main>
    );
  }

  if (status === 'finished' && state.ended) {
    return (
      <ResultScreen
        ended={state.ended}
        me={state.me}
        isBotGame={state.game?.isBotGame ?? state.ended.results.some((result) => result.isBot)}
        counters={state.counters}
        onPlayAgain={() => void playAgain(state.game)}
        onPlayNow={() => {
          commands.reset();
          navigate('/dashboard', { state: PLAY_NOW_STATE });
        }}
        rematch={rematch}
        onDashboard={() => {
          commands.reset();
          navigate('/dashboard');
        }}
      />
    );
  }

  if (status === 'idle' || status === 'waiting' || !state.view) {
    if (status === 'starting' && state.game) {
      return (
        <CountdownOverlay game={state.game} startsAt={state.countdown?.startsAt ?? null} onComplete={() => undefined} />
      );
    }
    return (
      <div className="py-16 text-center">
        <Spinner />
        <p className="mt-3 text-muted">{isBotGame ? GAME_TEXTS.loadingBotGame : GAME_TEXTS.loadingGame}</p>
      </div>
    );
  }

  return (
    <>
      <GameScreen state={state} onLeave={() => setLeaving(true)} />
      {status === 'starting' && state.game && (
        <CountdownOverlay game={state.game} startsAt={state.countdown?.startsAt ?? null} onComplete={() => undefined} />
      )}
      <LeaveDialog
        open={leaving}
        onOpenChange={setLeaving}
        forfeits={isMember(state) && status === 'active'}
        onLeave={() => void leave()}
      />
    </>
  );
}
