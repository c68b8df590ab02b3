/**
 * Play now: one click to a game with people of similar rating. While
 * searching, how many are searching and the time waited; a table found opens its room; alone for
 * 20 s, a bot game paced to the player is offered (or they keep waiting). Cancel, or leaving the
 * page, leaves the queue at once. A result screen's Play now comes here with `{ playNow: true }` in the
 * navigation state, and the search starts at once.
 */

/** The navigation state with which a page sends the player here to search at once. */
export const PLAY_NOW_STATE = { playNow: true } as const;
import * as Dialog from '@radix-ui/react-dialog';
import { MATCH_ME, MATCHMAKING_TEXTS, QUEUE_SIZES, type QueueSize, type ServerPayload } from '@memeslam/protocol';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { formatElapsed } from '../game/clock.ts';
import { ackError, commands, onServerEvent } from '../game/live.ts';

type Searching = ServerPayload<'queueStatus'>;

/** Searching and nothing heard from the queue for this long: the page queues again. */
const QUEUE_SILENCE_MS = 10_000;

export function PlayNow({ disabled }: { disabled: boolean }) {
  const navigate = useNavigate();
  const [size, setSize] = useState<QueueSize>('any');
  const [searching, setSearching] = useState<Searching | null>(null);
  const [offered, setOffered] = useState(false);
  const queued = useRef(false);
  const sizeQueued = useRef<QueueSize>('any');
  /** When the queue last said something to this page (its status comes every second while searching). */
  const heardAt = useRef(0);
  const location = useLocation();
  const askedAtOnce = (location.state as { playNow?: boolean } | null)?.playNow === true;
  const searchAtOnce = useEffectEvent(() => {
    // Once: a reload of the dashboard does not search again.
    void navigate(location.pathname, { replace: true, state: null });
    void search();
  });
  useEffect(() => {
    if (askedAtOnce && !disabled) searchAtOnce();
  }, [askedAtOnce, disabled]);

  /**
   * Queues again, keeping the wait (the queue remembers when this player began searching): after the
   * socket came back (its server restarted, or died and another took over), or when the queue's news
   * stopped coming (the node that pairs died as it seated this player's table).
   */
  const queueAgain = useEffectEvent(() => {
    heardAt.current = Date.now();
    void commands.joinQueue(sizeQueued.current).then((ack) => {
      if (ack.success || !queued.current) return;
      queued.current = false;
      setSearching(null);
      setOffered(false);
      toast.error(ackError(ack, MATCHMAKING_TEXTS.joinFailed));
    });
  });
  useEffect(() => {
    const watch = setInterval(() => {
      if (queued.current && Date.now() - heardAt.current > QUEUE_SILENCE_MS) queueAgain();
    }, 1000);
    return () => clearInterval(watch);
  }, []);

  useEffect(() => {
    const off = onServerEvent(({ event, payload }) => {
      if (!queued.current) return;
      if (event === 'connected') queueAgain();
      else if (event === 'queueStatus') {
        heardAt.current = Date.now();
        setSearching(payload);
      } else if (event === 'botGameOffered') setOffered(true);
      else if (event === 'matchFound') {
        queued.current = false;
        navigate(`/lobby/${payload.roomCode}`);
      }
    });
    return () => {
      off();
      // Leaving the page leaves the queue.
      if (queued.current) void commands.leaveQueue();
      queued.current = false;
    };
  }, [navigate]);

  async function search() {
    queued.current = true;
    sizeQueued.current = size;
    heardAt.current = Date.now();
    const ack = await commands.joinQueue(size);
    if (!ack.success || !ack.data) {
      queued.current = false;
      toast.error(ackError(ack, MATCHMAKING_TEXTS.joinFailed));
      return;
    }
    setSearching(ack.data);
  }

  function cancel() {
    queued.current = false;
    setSearching(null);
    setOffered(false);
    void commands.leaveQueue();
  }

  async function playBot() {
    cancel();
    const ack = await commands.createBotGame({ numberOfBots: 1, botDifficulty: MATCH_ME, autoStart: true });
    if (ack.success && ack.data) navigate(`/lobby/${ack.data.roomCode}`);
    else toast.error(ackError(ack, MATCHMAKING_TEXTS.playBot));
  }

  return (
    <section aria-labelledby="play-now-title" className="rounded-xl border border-gold/50 bg-panel p-4">
      <h2 id="play-now-title" className="text-lg font-semibold">
        {MATCHMAKING_TEXTS.playNow}
      </h2>
      {searching ? (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <p role="status" className="flex-1">
            {MATCHMAKING_TEXTS.searching}{' '}
            <span className="text-sm text-muted">
              {MATCHMAKING_TEXTS.searchingCount(searching.searching)} · {formatElapsed(searching.waitedMs)}
            </span>
          </p>
          <button type="button" onClick={cancel} className="rounded-lg border border-edge px-4 py-2">
            {MATCHMAKING_TEXTS.cancel}
          </button>
        </div>
      ) : (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <fieldset className="flex items-center gap-2">
            <legend className="sr-only">{MATCHMAKING_TEXTS.tableSize}</legend>
            <span aria-hidden="true" className="text-sm text-muted">
              {MATCHMAKING_TEXTS.tableSize}
            </span>
            {QUEUE_SIZES.map((s) => (
              <label
                key={s}
                className="cursor-pointer rounded-lg border border-edge px-3 py-1 text-sm has-[:checked]:border-gold has-[:checked]:text-gold"
              >
                <input
                  type="radio"
                  name="play-now-size"
                  value={String(s)}
                  checked={size === s}
                  onChange={() => setSize(s)}
                  className="sr-only"
                />
                {s === 'any' ? MATCHMAKING_TEXTS.anySize : s}
              </label>
            ))}
          </fieldset>
          <button
            type="button"
            disabled={disabled}
            onClick={() => void search()}
            className="rounded-lg bg-gold px-5 py-2 font-semibold text-ink disabled:opacity-50"
          >
            {MATCHMAKING_TEXTS.playNow}
          </button>
        </div>
      )}
      <Dialog.Root open={offered && searching !== null} onOpenChange={(open) => !open && setOffered(false)}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-50 bg-black/70" />
          <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(26rem,92vw)] -translate-x-1/2 -translate-y-1/2 rounded-xl border border-edge bg-panel p-6 shadow-2xl">
            <Dialog.Title className="text-xl font-bold">{MATCHMAKING_TEXTS.botOfferTitle}</Dialog.Title>
            <Dialog.Description className="mt-2 text-muted">{MATCHMAKING_TEXTS.botOffer}</Dialog.Description>
            <div className="mt-5 flex justify-end gap-3">
              <button
                type="button"
                onClick={() => setOffered(false)}
                className="rounded-lg border border-edge px-4 py-2"
              >
                {MATCHMAKING_TEXTS.keepWaiting}
              </button>
              <button
                type="button"
                onClick={() => void playBot()}
                className="rounded-lg bg-brand px-4 py-2 font-semibold text-white"
              >
                {MATCHMAKING_TEXTS.playBot}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </section>
  );
}
