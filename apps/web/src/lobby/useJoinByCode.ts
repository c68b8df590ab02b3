/**
 * Joining a game by its room code from a form, answered at the field: a wrong code says "Game not
 * found" there as soon as the server does (the join's retries, for a room that reaches this server
 * late, go on behind it and still join), any other refusal when the join gives up. A joined game
 * opens its waiting room. A newer join, or an edit of the code, makes an older one's answer moot.
 */
import { LOBBY_TEXTS } from '@memeslam/protocol';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ackError, commands } from '../game/live.ts';

export interface JoinByCode {
  readonly joining: boolean;
  /** The refusal to show at the code's field, or null. */
  readonly error: string | null;
  join(roomCode: string): Promise<void>;
  /** The code was edited: its error goes, and an answer still to come for the old code is ignored. */
  edited(): void;
}

export function useJoinByCode(initialError: string | null = null): JoinByCode {
  const navigate = useNavigate();
  const [joining, setJoining] = useState(false);
  const [error, setError] = useState<string | null>(initialError);
  const current = useRef(0);

  const join = useCallback(
    async (roomCode: string) => {
      const id = (current.current += 1);
      const mine = () => current.current === id;
      setJoining(true);
      setError(null);
      const ack = await commands.join(roomCode.toUpperCase(), {
        onNotFound: (text) => {
          if (!mine()) return;
          setJoining(false);
          setError(text);
        },
      });
      if (!ack.success || !ack.data) {
        if (!mine()) return;
        setJoining(false);
        setError(ackError(ack, LOBBY_TEXTS.failedToJoinGame));
        return;
      }
      // A retry found the room after all (or the first try did): in we go, whatever the field says now.
      setJoining(false);
      setError(null);
      toast.success(LOBBY_TEXTS.joinedGame);
      navigate(`/lobby/${ack.data.roomCode}`);
    },
    [navigate],
  );

  const edited = useCallback(() => {
    current.current += 1;
    setJoining(false);
    setError(null);
  }, []);

  return useMemo(() => ({ joining, error, join, edited }), [joining, error, join, edited]);
}
