/**
 * /lobby/{roomCode}: the waiting room. Seats, settings, the Mark Ready toggle, Start Game for the
 * host, the countdown overlay when the game starts, and then the game page /game/{roomCode}.
 *
 * The URL alone is enough (a reload, a shared link): when the live store holds no game or another
 * one, the page joins the room by its code; the server re-seats a member. A game already in play
 * goes straight to the game page.
 */
import { BOT_AUTO_START_DELAY_MS, LOBBY_TEXTS } from '@memeslam/protocol';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { useSession } from '../auth/session.ts';
import { Spinner } from '../components/Spinner.tsx';
import { CountdownOverlay } from '../game/CountdownOverlay.tsx';
import { ackError, commands, liveGame, useLiveGame } from '../game/live.ts';
import { BotInfoPanel } from '../lobby/BotInfoPanel.tsx';
import { ConnectionIndicator } from '../components/ConnectionIndicator.tsx';
import { GameModePanel } from '../lobby/GameModePanel.tsx';
import { PlayerList } from '../lobby/PlayerList.tsx';
import { ReadyPanel } from '../lobby/ReadyPanel.tsx';
import { InviteLink } from '../lobby/InviteLink.tsx';
import { RoomCode } from '../lobby/RoomCode.tsx';
import { SettingsSummary } from '../lobby/SettingsSummary.tsx';
import { botCountText, speedLabel } from '../lobby/labels.ts';
import { useCountdownGate } from '../lobby/useCountdownGate.ts';
import { useLobbyToasts } from '../lobby/useLobbyToasts.ts';
import { connect, useConnection } from '../realtime/socket.ts';

export function WaitingRoom() {
  const roomCode = (useParams().roomCode ?? '').toUpperCase();
  const navigate = useNavigate();
  const { user } = useSession();
  const live = useLiveGame();
  const connected = useConnection().status === 'connected';
  const game = live.game?.roomCode === roomCode ? live.game : null;
  const status = game ? live.status : 'idle';
  const showCountdown = useCountdownGate(status);
  const [readyPending, setReadyPending] = useState(false);
  const [startPending, setStartPending] = useState(false);
  useLobbyToasts(live.me);

  // Enter the room once per code: from the lobby the store already holds it; otherwise join.
  const entering = useRef<string | null>(null);
  useEffect(() => {
    if (entering.current === roomCode) return;
    entering.current = roomCode;
    if (liveGame.get().game?.roomCode === roomCode) {
      connect().catch(() => undefined);
      return;
    }
    // A code that finds no game (a mistyped link, a lobby that closed) goes back to /lobby,
    // the code in the join field with the reason under it rather than in a passing toast.
    void commands.join(roomCode).then((ack) => {
      if (ack.success) return;
      const joinError = ackError(ack, LOBBY_TEXTS.failedToJoinGame);
      navigate('/lobby', { replace: true, state: { joinCode: roomCode, joinError } });
    });
  }, [roomCode, navigate]);

  // A game this page never saw waiting (a reload mid-game) goes straight to the game page; one it
  // saw waiting gets there through the countdown.
  const sawLobby = useRef(false);
  useEffect(() => {
    if (status === 'waiting' || status === 'starting') sawLobby.current = true;
    else if ((status === 'active' || status === 'finished') && !sawLobby.current) {
      navigate(`/game/${roomCode}`, { replace: true });
    }
  }, [status, roomCode, navigate]);

  const me = game?.players.find((p) => p.userId === live.me) ?? null;
  const isHost = Boolean(
    game && (me?.isHost || game.host.userId === live.me || (user && game.host.username === user.username)),
  );
  const allReady = Boolean(game && game.players.length >= 2 && game.players.every((p) => p.isReady));
  const waiting = status === 'waiting';

  async function setReady(isReady: boolean) {
    if (!connected || readyPending) return;
    if (!me) {
      toast.error(LOBBY_TEXTS.notInGame);
      return;
    }
    setReadyPending(true);
    const ack = await commands.setReady(isReady);
    setReadyPending(false);
    if (!ack.success) toast.error(ackError(ack, LOBBY_TEXTS.failedToUpdateReady));
  }

  async function start() {
    if (!isHost) {
      toast.error(LOBBY_TEXTS.onlyHostCanStart);
      return;
    }
    if (!allReady) {
      toast.error(LOBBY_TEXTS.allPlayersMustBeReady);
      return;
    }
    setStartPending(true);
    const ack = await commands.start();
    setStartPending(false);
    if (!ack.success) toast.error(ackError(ack, LOBBY_TEXTS.failedToStartGame));
  }

  // Auto-ready (the autoPlay preference): once per game, when seated and not ready.
  const autoReadied = useRef<string | null>(null);
  const autoPlay = user?.preferences.autoPlay ?? false;
  useEffect(() => {
    if (!autoPlay || !game || !me || me.isReady || !waiting || !connected) return;
    if (autoReadied.current === game.gameId) return;
    autoReadied.current = game.gameId;
    void setReady(true);
  });

  // Bot game auto-start: the host asks 1 s after all are ready, unless the server does it.
  const serverStarts = game?.gameSettings.autoStart ?? false;
  useEffect(() => {
    if (!game?.isBotGame || serverStarts || !waiting || !isHost || !allReady || !connected) return;
    const timer = setTimeout(() => void commands.start(), BOT_AUTO_START_DELAY_MS);
    return () => clearTimeout(timer);
  }, [game?.isBotGame, serverStarts, waiting, isHost, allReady, connected]);

  async function leave() {
    await commands.leave();
    navigate('/lobby');
  }

  if (!game) {
    return (
      <main className="mx-auto max-w-5xl space-y-4 px-4 py-8">
        <ConnectionIndicator />
        <Spinner label="Joining game" />
        <p className="text-center text-muted">Joining room {roomCode}…</p>
      </main>
    );
  }

  const bots = game.players.filter((p) => p.isBot).length;
  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <header>
        <div className="space-y-2">
          <h1 className="flex flex-wrap items-center gap-3 text-3xl font-bold sm:text-4xl">
            {game.isBotGame ? LOBBY_TEXTS.botGameLobbyTitle : LOBBY_TEXTS.gameLobbyTitle}
            {isHost && <span className="rounded-full bg-gold px-3 py-1 text-sm font-bold text-ink">Host</span>}
          </h1>
          <ul className="flex flex-wrap gap-2 text-sm" aria-label="Game">
            <li className="rounded-full border border-green-500/50 px-3 py-0.5 text-green-300">Free</li>
            <li className="rounded-full border border-edge px-3 py-0.5">
              {speedLabel(game.gameSettings.gameSpeed)} speed
            </li>
            <li className="rounded-full border border-edge px-3 py-0.5">{bots ? botCountText(bots) : 'No bots'}</li>
          </ul>
        </div>
      </header>

      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <div className="space-y-6">
          {/* On the left, clear of the toasts in the top-right corner. */}
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <RoomCode roomCode={game.roomCode} />
            <p className="text-sm text-muted">Share this code or the invite link so friends can join.</p>
          </div>
          <InviteLink roomCode={game.roomCode} />
          <PlayerList game={game} me={live.me} />
          <ReadyPanel
            isReady={me?.isReady ?? false}
            canToggle={connected && waiting && Boolean(me) && !readyPending}
            onToggle={() => void setReady(!(me?.isReady ?? false))}
            isHost={isHost}
            canStart={connected && waiting && allReady && !startPending}
            starting={startPending}
            onStart={() => void start()}
            allReady={allReady && waiting}
            playerCount={game.players.length}
          />
          <button
            type="button"
            onClick={() => void leave()}
            className="w-full rounded-xl border border-red-500/60 px-5 py-2.5 font-semibold text-red-300 hover:bg-red-500/10"
          >
            Leave Game
          </button>
        </div>
        <div className="space-y-6">
          <section aria-label="Connection status" className="rounded-xl border border-edge bg-panel p-4">
            <h2 className="mb-2 text-lg font-semibold">Connection</h2>
            <ConnectionIndicator />
          </section>
          <SettingsSummary game={game} />
          <BotInfoPanel game={game} />
          <GameModePanel isBotGame={game.isBotGame} />
        </div>
      </div>

      {showCountdown && (
        <CountdownOverlay
          game={game}
          startsAt={live.countdown?.startsAt ?? null}
          onComplete={() => navigate(`/game/${roomCode}`)}
        />
      )}
    </main>
  );
}
