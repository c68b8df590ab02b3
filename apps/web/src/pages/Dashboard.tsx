/**
 * /dashboard: greeting and connection, the API-error banner, the user's
 * current game, joining with a room code, stats, the current tournament with its entry, creating games (human, bot dialog,
 * quick start), the game list by tab, the bot stats and the tiles. The pieces live in ../dashboard/,
 * one per file; this page wires them to the queries, the socket and the actions.
 */
import { DASHBOARD_TEXTS, quickStartSettings } from '@memeslam/protocol';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { useSession } from '../auth/session.ts';
import { BotGameDialog } from '../dashboard/BotGameDialog.tsx';
import { BotStatsPanel } from '../dashboard/BotStatsPanel.tsx';
import { CreatePanel } from '../dashboard/CreatePanel.tsx';
import { CurrentGameBanner } from '../dashboard/CurrentGameBanner.tsx';
import { DashboardHeader } from '../dashboard/DashboardHeader.tsx';
import type { EntryAction, GameSummary } from '../dashboard/entry.ts';
import { ErrorBanner } from '../dashboard/ErrorBanner.tsx';
import { GameTabs } from '../dashboard/GameTabs.tsx';
import { type GameTab, useActiveGames, useFreshUser, useGameStats, useMyGame } from '../dashboard/queries.ts';
import { PlayNow } from '../dashboard/PlayNow.tsx';
import { QuickLinks } from '../dashboard/QuickLinks.tsx';
import { type DashboardStats, StatsPanel } from '../dashboard/StatsPanel.tsx';
import { TournamentCard } from '../dashboard/TournamentCard.tsx';
import { useBotRecord } from '../dashboard/useBotRecord.ts';
import { useDashboardActions } from '../dashboard/useDashboardActions.ts';
import { JoinGameForm } from '../lobby/JoinGameForm.tsx';
import { useJoinByCode } from '../lobby/useJoinByCode.ts';
import { connect, useConnection } from '../realtime/socket.ts';

export function Dashboard() {
  const { user: storedUser } = useSession();
  const fresh = useFreshUser();
  const user = fresh.data ?? storedUser;
  const [tab, setTab] = useState<GameTab>('free');
  const games = useActiveGames(tab);
  const myGame = useMyGame();
  const stats = useGameStats();
  const actions = useDashboardActions();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [bannerDismissed, setBannerDismissed] = useState(false);
  const botRecord = useBotRecord(user?.id, stats.data?.recentGames);
  const joiner = useJoinByCode();
  const connected = useConnection().status === 'connected';

  // The dashboard opens the real-time connection; its state shows in the header.
  useEffect(() => {
    connect().catch(() => undefined);
  }, []);

  // One toast when the list starts failing (not on every silent refresh), and the banner again.
  useEffect(() => {
    if (!games.isError) return;
    toast.error(DASHBOARD_TEXTS.failedToLoadGames);
    setBannerDismissed(false);
  }, [games.isError]);

  if (!user) return null;
  const me = { id: user.id, username: user.username };
  const fromServer = stats.data?.userStats;
  // A failed stats load falls back to the user's own stats, silently.
  const panel: DashboardStats = fromServer
    ? {
        gamesPlayed: fromServer.totalGames,
        gamesWon: fromServer.totalWins,
        winRate: fromServer.winRate,
        averageGameTime: fromServer.averageGameTime,
        botGames: user.stats.botGamesPlayed,
      }
    : {
        gamesPlayed: user.stats.gamesPlayed,
        gamesWon: user.stats.gamesWon,
        winRate: user.stats.winRate,
        averageGameTime: user.stats.averageGameTime,
        botGames: user.stats.botGamesPlayed,
      };

  function onAction(action: EntryAction, game: GameSummary) {
    if (action.kind === 'join') void actions.join(game);
    else if (action.kind !== 'full') actions.enter(game);
  }

  const current = myGame.data ?? null;
  return (
    <main className="mx-auto max-w-6xl space-y-5 px-4 py-6 md:py-8">
      <DashboardHeader username={user.username} level={user.level} />
      {games.isError && !bannerDismissed && (
        <ErrorBanner
          message={DASHBOARD_TEXTS.failedToLoadGames}
          onRetry={() => void games.refetch()}
          onDismiss={() => setBannerDismissed(true)}
        />
      )}
      {current && <CurrentGameBanner game={current} onEnter={() => actions.enter(current)} />}
      {/* Near the top, so a friend's code is one step away on a phone too. */}
      <JoinGameForm joiner={joiner} connected={connected} title="Join with code" />
      <StatsPanel stats={panel} />
      <TournamentCard />
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-3">
        <div className="space-y-5 lg:col-span-2">
          <CreatePanel
            humanUnavailable={tab === 'wagered' || actions.connectionError}
            connectionError={actions.connectionError}
            creating={actions.creatingBotGame}
            onCreateHuman={() => actions.createHumanGame(tab)}
            onCreateBot={() => {
              if (actions.mayCreateBotGame()) setDialogOpen(true);
            }}
            onQuickStart={(difficulty) => actions.createBotGame(quickStartSettings(difficulty))}
            onMyGame={() => actions.enter(current)}
          />
          {/* Under the Play panel, so a phone's first screen keeps Play and Quick Start. */}
          {!current && <PlayNow disabled={actions.connectionError} />}
          <GameTabs
            tab={tab}
            onTabChange={setTab}
            games={games.data?.games}
            loading={games.isPending}
            refreshing={games.isFetching && !games.isPending}
            me={me}
            joining={actions.joining}
            connectionError={actions.connectionError}
            onRefresh={() => void games.refetch()}
            onAction={onAction}
          />
        </div>
        <aside aria-label="Bot stats and shortcuts" className="space-y-5">
          <BotStatsPanel
            global={stats.data?.globalStats ?? null}
            userBotGames={user.stats.botGamesPlayed}
            record={botRecord}
          />
          <QuickLinks />
        </aside>
      </div>
      <BotGameDialog
        open={dialogOpen}
        onOpenChange={setDialogOpen}
        busy={actions.creatingBotGame !== null}
        onCreate={(settings) => actions.createBotGame(settings)}
      />
    </main>
  );
}
