/**
 * Sound effects: short synthesized tones, a fixed frequency per event, made with the Web
 * Audio API. The AudioContext is created on the first sound (browsers only allow it after a user
 * gesture) and any failure is silent: a game never breaks over audio.
 *
 * The on/off toggle is kept in localStorage; until the player flips it, it follows the signed-in
 * user's `preferences.sound` (default on).
 */
import { useSyncExternalStore } from 'react';
import { session } from '../auth/session.ts';

export type SoundName =
  'select' | 'play' | 'invalid' | 'powerUp' | 'freeze' | 'deadlock' | 'countdown' | 'go' | 'win' | 'lose';

interface Tone {
  /** Hz; a second frequency makes a two-note figure. */
  readonly frequency: number;
  readonly then?: number;
  /** Seconds per note. */
  readonly duration: number;
  readonly wave: OscillatorType;
  readonly gain: number;
}

export const SOUND_TONES: Record<SoundName, Tone> = {
  select: { frequency: 660, duration: 0.06, wave: 'sine', gain: 0.15 },
  play: { frequency: 880, duration: 0.08, wave: 'triangle', gain: 0.2 },
  invalid: { frequency: 180, duration: 0.15, wave: 'square', gain: 0.08 },
  powerUp: { frequency: 523, then: 784, duration: 0.09, wave: 'triangle', gain: 0.2 },
  freeze: { frequency: 1200, then: 900, duration: 0.12, wave: 'sine', gain: 0.15 },
  deadlock: { frequency: 220, then: 165, duration: 0.18, wave: 'sawtooth', gain: 0.08 },
  countdown: { frequency: 440, duration: 0.1, wave: 'sine', gain: 0.2 },
  go: { frequency: 880, duration: 0.25, wave: 'sine', gain: 0.25 },
  win: { frequency: 659, then: 988, duration: 0.18, wave: 'triangle', gain: 0.25 },
  lose: { frequency: 392, then: 262, duration: 0.22, wave: 'triangle', gain: 0.2 },
};

export const SOUND_STORAGE_KEY = 'sound-enabled';

const listeners = new Set<() => void>();
let context: AudioContext | null = null;

function stored(): boolean | null {
  try {
    const value = localStorage.getItem(SOUND_STORAGE_KEY);
    return value === null ? null : value === 'true';
  } catch {
    return null;
  }
}

/** Whether sounds play: the player's own toggle, else their profile preference, else on. */
export function isSoundEnabled(): boolean {
  return stored() ?? session.get().user?.preferences?.sound ?? true;
}

export function setSoundEnabled(on: boolean): void {
  try {
    localStorage.setItem(SOUND_STORAGE_KEY, String(on));
  } catch {
    // Storage may be unavailable (private mode); the toggle then lasts for this page only.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // The default follows the signed-in user, so a sign-in or profile change can flip it.
  const unsubscribeSession = session.subscribe(listener);
  return () => {
    listeners.delete(listener);
    unsubscribeSession();
  };
}

export function useSoundEnabled(): boolean {
  return useSyncExternalStore(subscribe, isSoundEnabled, () => true);
}

function audio(): AudioContext | null {
  if (context) return context;
  const Ctor = typeof window === 'undefined' ? undefined : window.AudioContext;
  if (!Ctor) return null;
  context = new Ctor();
  return context;
}

function note(ctx: AudioContext, frequency: number, start: number, tone: Tone): void {
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = tone.wave;
  oscillator.frequency.value = frequency;
  // A quick attack and an exponential fade, so the tone does not click.
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(tone.gain, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + tone.duration);
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(start);
  oscillator.stop(start + tone.duration + 0.02);
}

export function playSound(name: SoundName): void {
  if (!isSoundEnabled()) return;
  try {
    const ctx = audio();
    if (!ctx) return;
    if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    const tone = SOUND_TONES[name];
    const start = ctx.currentTime;
    note(ctx, tone.frequency, start, tone);
    if (tone.then !== undefined) note(ctx, tone.then, start + tone.duration, tone);
  } catch {
    // No audio device, a blocked context, an old browser: play on in silence.
  }
}
