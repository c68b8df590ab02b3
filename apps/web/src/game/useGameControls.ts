/**
 * What the player does on the game screen: select a hand card (again to deselect), click a pile
 * to play it, select a power-up (again to deselect; BOMB, REVERSAL and WHIRLWIND fire at once,
 * FREEZE opens the target picker, SNIPER waits for a card and a pile), and the same by keyboard
 * (keys.ts: 1–3 a hand card, J K L ; a pile, B R F W S a power-up, Escape clears).
 */
import type { PowerUpType } from '@memeslam/engine';
import { GAME_TEXTS, HINTS } from '@memeslam/protocol/game-texts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { toast } from 'sonner';
import { keyAction } from './keys.ts';
import { ackError, commands, liveGame } from './live.ts';
import { freezeTargets, playProblem, powerUpProblem, selectProblem } from './rules.ts';
import { playSound } from './sounds.ts';
import { displayed } from './displayed.ts';
import type { LiveGame } from './state.ts';

export interface GameControls {
  readonly selectedCardId: string | null;
  readonly selectedPowerUp: PowerUpType | null;
  readonly freezePickerOpen: boolean;
  readonly hint: string;
  selectCard(cardId: string): void;
  clickPile(pileIndex: number): void;
  selectPowerUp(type: PowerUpType): void;
  freeze(targetPlayerId: string): void;
  closeFreezePicker(): void;
}

export function useGameControls(state: LiveGame, options: { readonly enabled: boolean }): GameControls {
  const [selectedCardId, setSelectedCardId] = useState<string | null>(null);
  const [selectedPowerUp, setSelectedPowerUp] = useState<PowerUpType | null>(null);
  const [freezePickerOpen, setFreezePickerOpen] = useState(false);
  const shown = useMemo(() => displayed(state), [state]);
  const frozen = state.frozen !== null;
  const ctx = useMemo(
    () => ({
      status: state.status,
      frozen,
      hand: shown.hand,
      piles: shown.piles,
      pileSizes: state.view?.pileSizes,
      stockSize: state.view?.stockSize,
    }),
    [state.status, frozen, shown, state.view?.pileSizes, state.view?.stockSize],
  );
  const targets = useMemo(() => freezeTargets(state.view, state.me), [state.view, state.me]);

  // Becoming frozen, or the game ending, clears any selection.
  const locked = frozen || state.status !== 'active';
  useEffect(() => {
    if (!locked) return;
    setSelectedCardId(null);
    setSelectedPowerUp(null);
    setFreezePickerOpen(false);
  }, [locked]);
  // A selected card that left the hand (played, or taken by a power-up) is no longer selected.
  useEffect(() => {
    if (selectedCardId && !shown.hand.some((c) => c.id === selectedCardId)) setSelectedCardId(null);
  }, [selectedCardId, shown.hand]);

  // One toast per cause, replaced rather than stacked: tapping while frozen says so once, not once a tap.
  const refuse = useCallback((message: string) => {
    toast.error(message, { id: message });
    playSound('invalid');
  }, []);

  const selectCard = useCallback(
    (cardId: string) => {
      const problem = selectProblem(ctx);
      if (problem) return refuse(problem);
      playSound('select');
      setSelectedCardId((current) => (current === cardId ? null : cardId));
    },
    [ctx, refuse],
  );

  /** Whether the server took it; a refusal is told and undone (live.ts rolls the state back). */
  const usePowerUp = useCallback(
    async (
      type: PowerUpType,
      target: { targetPlayerId?: string; cardId?: string; pileIndex?: number } = {},
    ): Promise<boolean> => {
      playSound('powerUp');
      const ack = await commands.usePowerUp(type, target);
      if (!ack.success) refuse(ackError(ack, GAME_TEXTS.failedToUsePowerUp));
      return ack.success;
    },
    [refuse],
  );

  /**
   * A refused play puts the card back in the hand, still selected, so a second click on a pile
   * tries again — unless the player has selected something else meanwhile, or can no longer play.
   */
  const keepSelected = useCallback((cardId: string, sniper: boolean) => {
    const now = liveGame.get();
    if (now.status !== 'active' || now.frozen !== null || !now.hand.some((c) => c.id === cardId)) return;
    setSelectedCardId((current) => current ?? cardId);
    if (sniper && now.powerUps.available.includes('SNIPER')) setSelectedPowerUp((current) => current ?? 'SNIPER');
  }, []);

  const clickPile = useCallback(
    (pileIndex: number) => {
      const sniper = selectedPowerUp === 'SNIPER';
      const problem = playProblem(ctx, selectedCardId, pileIndex, { sniper });
      if (problem) return refuse(problem);
      const card = ctx.hand.find((c) => c.id === selectedCardId);
      if (!card) return;
      setSelectedCardId(null);
      if (sniper) {
        setSelectedPowerUp(null);
        void usePowerUp('SNIPER', { cardId: card.id, pileIndex }).then((took) => {
          if (!took) keepSelected(card.id, true);
        });
        return;
      }
      playSound('play');
      void commands.playCard(card, pileIndex).then((ack) => {
        if (ack.success) return;
        refuse(ackError(ack, GAME_TEXTS.failedToPlayCard));
        keepSelected(card.id, false);
      });
    },
    [ctx, selectedCardId, selectedPowerUp, refuse, usePowerUp, keepSelected],
  );

  const selectPowerUp = useCallback(
    (type: PowerUpType) => {
      const problem = powerUpProblem(ctx, shown.powerUps, type, targets);
      if (problem) return refuse(problem);
      if (type === 'FREEZE') {
        // A second click on the selected FREEZE opens the picker again.
        setSelectedPowerUp('FREEZE');
        setFreezePickerOpen(true);
        return;
      }
      if (selectedPowerUp === type) {
        setSelectedPowerUp(null);
        return;
      }
      if (type === 'SNIPER') {
        setSelectedPowerUp('SNIPER');
        return;
      }
      setSelectedPowerUp(null);
      void usePowerUp(type);
    },
    [ctx, shown.powerUps, targets, selectedPowerUp, refuse, usePowerUp],
  );

  const freeze = useCallback(
    (targetPlayerId: string) => {
      setFreezePickerOpen(false);
      setSelectedPowerUp(null);
      void usePowerUp('FREEZE', { targetPlayerId });
    },
    [usePowerUp],
  );

  const closeFreezePicker = useCallback(() => {
    setFreezePickerOpen(false);
    setSelectedPowerUp(null);
  }, []);

  // Keyboard play.
  const { enabled } = options;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || freezePickerOpen) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, [role="dialog"]')) return;
      const action = keyAction(event.key, event.code);
      if (!action) return;
      if (action.kind !== 'clear') event.preventDefault();
      if (action.kind === 'clear') {
        setSelectedCardId(null);
        setSelectedPowerUp(null);
      } else if (action.kind === 'card') {
        const card = ctx.hand[action.slot];
        if (card) selectCard(card.id);
      } else if (action.kind === 'pile') {
        if (action.index < ctx.piles.length) clickPile(action.index);
      } else {
        selectPowerUp(action.type);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled, freezePickerOpen, ctx, selectCard, clickPile, selectPowerUp]);

  let hint: string = HINTS.selectCardThenPile;
  if (frozen) hint = HINTS.youAreFrozen;
  else if (state.status === 'active' && shown.cardsLeft === 0 && state.dealt) hint = HINTS.allCardsPlayed;
  else if (selectedPowerUp === 'SNIPER') hint = HINTS.sniperReady;
  else if (selectedPowerUp === 'FREEZE') hint = HINTS.freezeSelected;

  return {
    selectedCardId,
    selectedPowerUp,
    freezePickerOpen,
    hint,
    selectCard,
    clickPile,
    selectPowerUp,
    freeze,
    closeFreezePicker,
  };
}
