/**
 * Seeded PRNG (sfc32) whose whole state is four uint32 words, stored in the game state so that a game
 * is a pure function of its seed and its timestamped commands.
 */
export type RngState = readonly [number, number, number, number];

const SEED_PATTERN = /^[0-9a-f]{32}$/i;

export function isValidSeed(seed: string): boolean {
  return SEED_PATTERN.test(seed);
}

/** Seeds from 32 hex characters (128 bits); any other string is hashed first. */
export function seedRng(seed: string): RngState {
  const words: [number, number, number, number] = SEED_PATTERN.test(seed)
    ? ([0, 1, 2, 3].map((i) => Number.parseInt(seed.slice(i * 8, i * 8 + 8), 16) >>> 0) as [
        number,
        number,
        number,
        number,
      ])
    : hashString(seed);
  // Warm up so that similar seeds diverge.
  const random = new Random(words);
  for (let i = 0; i < 15; i += 1) random.float();
  return random.state;
}

/** A mutable random source over a copy of a stored state; read `state` back when done. */
export class Random {
  // sfc32's four words as plain fields: the hot path of every shuffle and bot decision.
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(state: RngState) {
    [this.#a, this.#b, this.#c, this.#d] = state;
  }

  get state(): RngState {
    return [this.#a, this.#b, this.#c, this.#d];
  }

  /** Whether this source stands where `state` does (it drew nothing since): checked without a copy. */
  isAt(state: RngState): boolean {
    return this.#a === state[0] && this.#b === state[1] && this.#c === state[2] && this.#d === state[3];
  }

  /** Uniform in [0, 1); sfc32. */
  float(): number {
    const a = this.#a;
    const b = this.#b;
    const c = this.#c;
    const d = this.#d;
    const t = (((a + b) | 0) + d) | 0;
    this.#d = (d + 1) | 0;
    this.#a = b ^ (b >>> 9);
    this.#b = (c + (c << 3)) | 0;
    this.#c = (((c << 21) | (c >>> 11)) + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[this.int(items.length)];
  }

  /** Fisher–Yates, in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i -= 1) {
      const j = this.int(i + 1);
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
    return items;
  }
}

function hashString(text: string): [number, number, number, number] {
  // cyrb128: four independent 32-bit hashes of the string.
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i += 1) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}
