/** Keyboard play's keys: each key means one thing, whatever is selected. */
import { describe, expect, it } from 'vitest';
import { PILE_KEYS, keyAction, keysLegend } from '../src/game/keys.ts';

describe('keyAction', () => {
  it('takes 1–3 on the number row or the keypad as hand cards, and no other digit', () => {
    expect(keyAction('1', 'Digit1')).toEqual({ kind: 'card', slot: 0 });
    expect(keyAction('3', 'Numpad3')).toEqual({ kind: 'card', slot: 2 });
    // A layout whose number row types other characters unshifted (AZERTY: "&" on Digit1).
    expect(keyAction('&', 'Digit1')).toEqual({ kind: 'card', slot: 0 });
    expect(keyAction('4', 'Digit4')).toBeNull();
    expect(keyAction('0', 'Digit0')).toBeNull();
  });

  it('takes J K L ; as piles 1–4, by their place on the keyboard, never as cards', () => {
    expect(PILE_KEYS.map((k) => keyAction(k.label.toLowerCase(), k.code))).toEqual([
      { kind: 'pile', index: 0 },
      { kind: 'pile', index: 1 },
      { kind: 'pile', index: 2 },
      { kind: 'pile', index: 3 },
    ]);
    // AZERTY types "m" where QWERTY has ";".
    expect(keyAction('m', 'Semicolon')).toEqual({ kind: 'pile', index: 3 });
  });

  it('takes the power-ups by their letters, either case, and Escape as clear', () => {
    expect(keyAction('b', 'KeyB')).toEqual({ kind: 'powerUp', type: 'BOMB' });
    expect(keyAction('R', 'KeyR')).toEqual({ kind: 'powerUp', type: 'REVERSAL' });
    expect(keyAction('f', 'KeyF')).toEqual({ kind: 'powerUp', type: 'FREEZE' });
    expect(keyAction('w', 'KeyW')).toEqual({ kind: 'powerUp', type: 'WHIRLWIND' });
    expect(keyAction('s', 'KeyS')).toEqual({ kind: 'powerUp', type: 'SNIPER' });
    expect(keyAction('Escape', 'Escape')).toEqual({ kind: 'clear' });
    expect(keyAction('x', 'KeyX')).toBeNull();
    expect(keyAction('Enter', 'Enter')).toBeNull();
  });
});

describe('keysLegend', () => {
  it('names as many pile keys as the board has piles', () => {
    expect(keysLegend(2)).toBe('Keys: 1–3 card · J K pile · B R F W S power-up · Esc clears');
    expect(keysLegend(4)).toBe('Keys: 1–3 card · J K L ; pile · B R F W S power-up · Esc clears');
  });
});
