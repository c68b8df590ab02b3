/**
 * /lobby: create a free game (with or without bots), start a quick bot game, or join one by its
 * room code (also from ?join=CODE on load). Wagered mode (?mode=wagered) shows the same page with
 * creation refused: "Wagered Games Coming Soon". Success goes to the waiting room /lobby/{roomCode}.
 */
import type { BotChoice } from '@memeslam/protocol';
import { LOBBY_TEXTS, gameCreatedText } from '@memeslam/protocol';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useSession } from '../auth/session.ts';
import { ackError, commands } from '../game/live.ts';
import { BotSettingsPanel } from '../lobby/BotSettingsPanel.tsx';
import { ConnectionIndicator } from '../components/ConnectionIndicator.tsx';
import { Icon } from '../components/Icon.tsx';
import { GameSettingsPanel } from '../lobby/GameSettingsPanel.tsx';
import { JoinGameForm } from '../lobby/JoinGameForm.tsx';
import { useJoinByCode } from '../lobby/useJoinByCode.ts';
import { QuickBotGames } from '../lobby/QuickBotGames.tsx';
import {
  type BotSettingsForm,
  DEFAULT_BOT_SETTINGS,
  DEFAULT_GAME_SETTINGS,
  type GameSettingsForm,
  createGamePayload,
  quickBotGamePayload,
} from '../lobby/settings.ts';
import { connect, useConnection } from '../realtime/socket.ts';

type Busy = 'idle' | 'creating';

export function Lobby() {
  const { user } = useSession();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const wagered = params.get('mode') === 'wagered';
  const connected = useConnection().status === 'connected';
  const [game, setGame] = useState<GameSettingsForm>(DEFAULT_GAME_SETTINGS);
  const [bots, setBots] = useState<BotSettingsForm>(DEFAULT_BOT_SETTINGS);
  const [busy, setBusy] = useState<Busy>('idle');
  // A room URL that found no game comes back here with its code and why (WaitingRoom).
  const notFound = (useLocation().state as { joinCode?: string; joinError?: string } | null) ?? {};
  const joiner = useJoinByCode(notFound.joinError ?? null);

  useEffect(() => {
    // Failures show in the connection indicator, with its Retry.
    connect().catch(() => undefined);
  }, []);

  // ?join=CODE joins once on load, as soon as the socket is up; the parameter is then dropped.
  const joinParam = params.get('join');
  const joinedFromLink = useRef(false);
  useEffect(() => {
    if (!joinParam || joinedFromLink.current || !connected) return;
    joinedFromLink.current = true;
    setParams(
      (current) => {
        current.delete('join');
        return current;
      },
      { replace: true },
    );
    void joiner.join(joinParam);
  }, [joinParam, connected, joiner]);

  async function createGame() {
    if (!user) {
      toast.error(LOBBY_TEXTS.loginToCreateGame);
      return;
    }
    if (wagered || busy !== 'idle') return;
    setBusy('creating');
    const ack = await commands.createGame(createGamePayload(game, bots, user.id));
    setBusy('idle');
    if (!ack.success || !ack.data) {
      toast.error(ackError(ack, bots.enabled ? LOBBY_TEXTS.failedToCreateBotGame : LOBBY_TEXTS.failedToCreateGame));
      return;
    }
    toast.success(gameCreatedText(ack.data.roomCode));
    navigate(`/lobby/${ack.data.roomCode}`);
  }

  async function quickBotGame(botDifficulty: BotChoice) {
    if (!user) {
      toast.error(LOBBY_TEXTS.loginToCreateGame);
      return;
    }
    if (busy !== 'idle') return;
    setBusy('creating');
    const ack = await commands.createBotGame(quickBotGamePayload(botDifficulty, game));
    setBusy('idle');
    if (!ack.success || !ack.data) {
      toast.error(ackError(ack, LOBBY_TEXTS.failedToCreateBotGame));
      return;
    }
    toast.success(gameCreatedText(ack.data.roomCode));
    navigate(`/lobby/${ack.data.roomCode}`);
  }

  const minPlayers = bots.enabled ? bots.numberOfBots + 1 : 2;
  const canCreate = !wagered && connected && busy === 'idle';
  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link
          to="/dashboard"
          className="flex items-center gap-1 rounded-lg border border-edge px-3 py-1.5 text-sm hover:border-brand"
        >
          <Icon name="back" className="size-4" />
          Back to Dashboard
        </Link>
        <ConnectionIndicator />
      </div>

      <header>
        <h1 className="text-3xl font-bold sm:text-4xl">
          {wagered ? LOBBY_TEXTS.wageredLobbyTitle : LOBBY_TEXTS.freeLobbyTitle}
        </h1>
        <p className="mt-1 text-muted">
          {wagered
            ? 'Play for tokens against other players.'
            : 'Set up a game for friends or bots, or join one with its room code.'}
        </p>
      </header>

      <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
        <div className="space-y-6">
          {!wagered && (
            <BotSettingsPanel
              value={bots}
              onChange={(next) => {
                setBots(next);
                if (next.enabled && game.maxPlayers <= next.numberOfBots) {
                  setGame({ ...game, maxPlayers: next.numberOfBots + 1 });
                }
              }}
            />
          )}
          <GameSettingsPanel value={game} onChange={setGame} minPlayers={minPlayers} />
          <button
            type="button"
            disabled={!canCreate}
            onClick={() => void createGame()}
            className="w-full rounded-xl bg-brand px-6 py-3 text-lg font-bold text-white shadow-lg shadow-brand/20 disabled:opacity-50"
          >
            {wagered ? LOBBY_TEXTS.wageredGamesComingSoon : busy === 'creating' ? 'Creating…' : 'Create Game'}
          </button>
        </div>
        <div className="space-y-6">
          {!wagered && <QuickBotGames onPick={(d) => void quickBotGame(d)} disabled={!canCreate} />}
          <JoinGameForm joiner={joiner} connected={connected} initialCode={notFound.joinCode ?? joinParam ?? ''} />
        </div>
      </div>
    </main>
  );
}
