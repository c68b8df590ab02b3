/** Create Human Game, Create Bot Game (the dialog), My Game, and the three Quick Start buttons. */
import { DASHBOARD_BOT_DIFFICULTIES, MATCH_ME, MATCH_ME_TEXTS, QUICK_START_BOTS } from '@memeslam/protocol';
import { ActionButton } from './ActionButton.tsx';
import { capitalised } from './texts.ts';

type QuickStart = (typeof DASHBOARD_BOT_DIFFICULTIES)[number];

interface Props {
  readonly humanUnavailable: boolean;
  readonly connectionError: boolean;
  /** The difficulty of the bot game being created, if any. */
  readonly creating: string | null;
  readonly onCreateHuman: () => void;
  readonly onCreateBot: () => void;
  readonly onQuickStart: (difficulty: QuickStart | typeof MATCH_ME) => void;
  readonly onMyGame: () => void;
}

const QUICK_TONE: Record<QuickStart, string> = {
  easy: 'border-green-500/50 hover:bg-green-500/15',
  normal: 'border-yellow-400/50 hover:bg-yellow-400/15',
  hard: 'border-red-500/50 hover:bg-red-500/15',
};

export function CreatePanel(props: Props) {
  const { connectionError, creating } = props;
  return (
    // On a phone the one-click Quick Starts come before the create buttons, so they are on the first screen.
    <section aria-labelledby="play-title" className="flex flex-col rounded-xl border border-edge bg-panel p-4">
      <h2 id="play-title" className="text-lg font-semibold">
        Play
      </h2>
      <div className="order-2 mt-3 grid grid-cols-1 gap-2 sm:order-none sm:grid-cols-3">
        <ActionButton variant="primary" unavailable={props.humanUnavailable} onClick={props.onCreateHuman}>
          Create Human Game
        </ActionButton>
        <ActionButton variant="gold" unavailable={connectionError} onClick={props.onCreateBot}>
          Create Bot Game
        </ActionButton>
        <ActionButton onClick={props.onMyGame}>My Game</ActionButton>
      </div>
      <div role="group" aria-labelledby="quick-start-title" className="order-1 mt-3 sm:order-none sm:mt-4">
        <h3 id="quick-start-title" className="text-sm font-semibold text-muted">
          Quick Start vs bots
        </h3>
        <div className="mt-2 grid grid-cols-3 gap-2">
          {DASHBOARD_BOT_DIFFICULTIES.map((difficulty) => {
            const bots = QUICK_START_BOTS[difficulty];
            return (
              <ActionButton
                key={difficulty}
                variant="plain"
                unavailable={connectionError}
                disabled={creating !== null}
                onClick={() => props.onQuickStart(difficulty)}
                className={`flex flex-col items-center border bg-ink/40 px-2 py-3 ${QUICK_TONE[difficulty]}`}
              >
                {/* "Quick Start" for screen readers; the heading above says it to the eye. */}
                <span>
                  <span className="sr-only">Quick Start </span>
                  {creating === difficulty ? 'Creating…' : capitalised(difficulty)}
                </span>
                <span className="flex flex-col text-xs font-normal text-muted sm:flex-row sm:gap-1">
                  <span>
                    {bots} {bots === 1 ? 'bot' : 'bots'}
                  </span>
                  <span aria-hidden="true" className="hidden sm:inline">
                    ·
                  </span>
                  <span>{bots + 1} seats</span>
                </span>
              </ActionButton>
            );
          })}
        </div>
        <ActionButton
          variant="plain"
          unavailable={connectionError}
          disabled={creating !== null}
          onClick={() => props.onQuickStart(MATCH_ME)}
          className="mt-2 flex w-full flex-col items-center border border-sky-400/50 bg-ink/40 px-2 py-3 hover:bg-sky-400/15"
        >
          {/* Named by what it shows, "Quick Start" first for screen readers, as the buttons above. */}
          <span>
            <span className="sr-only">Quick Start </span>
            {creating === MATCH_ME ? 'Creating…' : MATCH_ME_TEXTS.label}
          </span>
          <span className="text-xs font-normal text-muted">{MATCH_ME_TEXTS.hint}</span>
        </ActionButton>
      </div>
    </section>
  );
}
