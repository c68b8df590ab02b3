/** Human Games, Bot Games and Wagered (coming soon) tabs over the game list of the chosen tab. */
import * as Tabs from '@radix-ui/react-tabs';
import { DASHBOARD_TEXTS } from '@memeslam/protocol';
import type { ReactNode } from 'react';
import type { EntryAction, GameSummary, Me } from './entry.ts';
import { GameList } from './GameList.tsx';
import { Icon } from '../components/Icon.tsx';
import type { GameTab } from './queries.ts';
import { DASHBOARD_UI } from './texts.ts';

const TABS: readonly { value: GameTab; label: string; empty: ReactNode }[] = [
  { value: 'free', label: 'Human Games', empty: DASHBOARD_UI.noHumanGames },
  { value: 'bot', label: 'Bot Games', empty: DASHBOARD_UI.noBotGames },
  {
    value: 'wagered',
    label: 'Wagered',
    empty: (
      <>
        <Icon name="lock" className="mx-auto h-8 w-8 text-gold" light />
        <span className="mt-2 block font-semibold text-gold">{DASHBOARD_TEXTS.wageredComingSoon}</span>
      </>
    ),
  },
];

interface Props {
  readonly tab: GameTab;
  readonly onTabChange: (tab: GameTab) => void;
  readonly games: readonly GameSummary[] | undefined;
  readonly loading: boolean;
  readonly refreshing: boolean;
  readonly me: Me;
  readonly joining: string | null;
  readonly connectionError: boolean;
  readonly onRefresh: () => void;
  readonly onAction: (action: EntryAction, game: GameSummary) => void;
}

export function GameTabs({ tab, onTabChange, ...list }: Props) {
  return (
    <section aria-labelledby="games-title" className="rounded-xl border border-edge bg-panel p-4">
      <h2 id="games-title" className="sr-only">
        Games
      </h2>
      <Tabs.Root value={tab} onValueChange={(value) => onTabChange(value as GameTab)}>
        <Tabs.List aria-label="Game types" className="mb-4 grid grid-cols-3 gap-1 rounded-lg bg-ink/60 p-1">
          {TABS.map((t) => (
            <Tabs.Trigger
              key={t.value}
              value={t.value}
              className="flex flex-col items-center justify-center gap-0.5 rounded-md px-1 py-2 text-xs font-semibold whitespace-nowrap sm:text-sm text-muted data-[state=active]:bg-brand data-[state=active]:text-white sm:flex-row sm:gap-2"
            >
              {t.label}
              {t.value === 'wagered' && (
                <span className="rounded-full bg-ink px-1.5 text-[0.6rem] font-bold text-gold uppercase">
                  Coming Soon
                </span>
              )}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Content key={t.value} value={t.value} className="focus-visible:outline-none">
            <GameList title={t.label} empty={t.empty} {...list} />
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  );
}
