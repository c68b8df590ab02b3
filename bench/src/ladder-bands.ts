/** The ladder's bands that `npm run ladder` checks, as a pure function of its figures. */
export interface LadderCell {
  /** The person's win %. */
  readonly winRate: number;
  readonly median: number;
  readonly p90: number;
  /** Bot power-ups aimed at a player (Freeze, Reversal) in a game's first 10 s, over all games. */
  readonly openingPowerUps: number;
  /** Players frozen again less than 20 s after a freeze, over all games. */
  readonly refreezes: number;
}

export interface LadderFigures {
  readonly games: number;
  /** By human model, then bot difficulty. */
  readonly humans: Record<string, Record<string, LadderCell>>;
  /** "Match me", by human model: the person's win rate after 5 games. */
  readonly match: Record<
    string,
    { readonly human: number; readonly games: number; readonly winRate: number; readonly recordedPaceMs: number }
  >;
  readonly headToHead: Record<string, Record<string, number>>;
  /** Each level wins at least 60% against the one below. */
  readonly ordered: boolean;
}

export interface Band {
  readonly what: string;
  readonly value: number | string;
  readonly band: string;
  readonly ok: boolean;
}

const CASUAL_BANDS: [bot: string, target: number, lo: number, hi: number][] = [
  ['easy', 90, 85, 95],
  ['normal', 65, 55, 75],
  ['hard', 40, 30, 50],
  ['expert', 15, 8, 25],
];

export function ladderBands(f: LadderFigures): Band[] {
  const bands: Band[] = [];
  for (const [bot, target, lo, hi] of CASUAL_BANDS) {
    const value = f.humans.casual?.[bot]?.winRate ?? Number.NaN;
    bands.push({
      what: `casual person (2.2 s) wins against ${bot}`,
      value,
      band: `about ${target}% (${lo}–${hi})`,
      ok: value >= lo && value <= hi,
    });
  }
  const quickHard = f.humans.quick?.hard?.winRate ?? Number.NaN;
  bands.push({ what: 'quick person (1.4 s) wins against hard', value: quickHard, band: '> 50%', ok: quickHard > 50 });
  bands.push({
    what: 'levels strictly ordered bot against bot (each ≥ 60% against the one below)',
    value: f.ordered ? 'yes' : 'no',
    band: 'yes',
    ok: f.ordered,
  });
  const normalMedian = f.humans.casual?.normal?.median ?? Number.NaN;
  bands.push({
    what: 'casual person against normal: median game length',
    value: normalMedian,
    band: '≥ 90 s',
    ok: normalMedian >= 90,
  });
  for (const [model, m] of Object.entries(f.match)) {
    bands.push({
      what: `"Match me" after 5 games: ${model} person (${m.human} s) wins`,
      value: m.winRate,
      band: '40–60%',
      ok: m.winRate >= 40 && m.winRate <= 60,
    });
  }
  let opening = 0;
  let refreezes = 0;
  for (const byBot of Object.values(f.humans)) {
    for (const cell of Object.values(byBot)) {
      opening += cell.openingPowerUps;
      refreezes += cell.refreezes;
    }
  }
  bands.push({
    what: `bot power-ups on a player in the first 10 s (all ${f.games}-game cells)`,
    value: opening,
    band: '0',
    ok: opening === 0,
  });
  bands.push({
    what: `players frozen again within 20 s (all ${f.games}-game cells)`,
    value: refreezes,
    band: '0',
    ok: refreezes === 0,
  });
  return bands;
}
