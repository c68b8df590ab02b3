/**
 * The invariants a chaos run (chaos.ts) checks, against PostgreSQL and what the players saw: nothing
 * acknowledged lost, nobody in two unfinished games, every finished game recorded once, every request
 * answered within 10 s of its node being healthy, SIGTERM within 10 s.
 */
import pg from 'pg';
import { replayLog } from '../../src/games/game-log-replay.ts';
import { ENGINE_RULES, type LogEntry, type StoredHeader } from '../../src/games/types.ts';

/** A request may take this long after its node is healthy again. */
export const ANSWER_WITHIN_MS = 10_000;

export interface RequestRecord {
  readonly event: string;
  readonly node: number;
  readonly sentAt: number;
  answeredAt: number | null;
  /** The socket closed before an answer: its node went away, the request with it (the player retries). */
  dropped: boolean;
}

export interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** What the players of a run did: their requests, acknowledged plays and violations seen on the way. */
export interface Played {
  readonly requests: readonly RequestRecord[];
  /** gameId → card ids whose play was acknowledged. */
  readonly acked: ReadonlyMap<string, ReadonlySet<string>>;
  readonly violations: readonly string[];
}

/** A player whose unfinished games can be asked for. */
export interface Seated {
  readonly userId: string;
  myGames(): Promise<string[]>;
}

/** Users seated in more than one unfinished game, read from the database alone. */
export async function doubleSeats(db: pg.Client): Promise<string[]> {
  const { rows } = await db.query<{
    id: string;
    status: string;
    lobby: { seats?: { playerId: string; bot: unknown }[] } | null;
    header: StoredHeader | null;
  }>(`select id, status, lobby, header from games where status <> 'finished' and restore_error is null`);
  const seatedIn = new Map<string, string[]>();
  for (const game of rows) {
    let seated: string[];
    if (game.header) {
      const { rows: entries } = await db.query<LogEntry>(
        'select n, at, seq, command from game_log where game_id = $1 order by n',
        [game.id],
      );
      const { state } = replayLog(game.header, entries, ENGINE_RULES);
      if (state.status === 'finished') continue;
      seated = state.players.flatMap((p) => (p.bot === null && p.left === null ? [p.id] : []));
    } else {
      seated = (game.lobby?.seats ?? []).flatMap((s) => (s.bot === null || s.bot === undefined ? [s.playerId] : []));
    }
    const what = `${game.id} (${game.status}${game.header ? '' : ', lobby'})`;
    for (const userId of seated) seatedIn.set(userId, [...(seatedIn.get(userId) ?? []), what]);
  }
  return [...seatedIn].flatMap(([userId, games]) => (games.length > 1 ? [`${userId} in ${games.join(', ')}`] : []));
}

export async function withDatabase<T>(url: string, use: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: url });
  // A chaos fault may end this connection while it sits idle (pg-away terminates the database's
  // backends): the client then emits 'error', which without a listener is an unhandled error of the
  // whole test run (clean run 5). A query on it still rejects, and that is what a check sees.
  db.on('error', () => {});
  await db.connect();
  try {
    return await use(db);
  } finally {
    await db.end().catch(() => {});
  }
}

export async function finalChecks(
  run: Played,
  db: pg.Client,
  actors: readonly Seated[],
  faults: readonly { startMs: number; endMs: number }[],
  t0: number,
): Promise<Check[]> {
  const checks: Check[] = [];
  {
    // Nothing acknowledged lost.
    let missing = 0;
    let total = 0;
    const lost: string[] = [];
    for (const [gameId, cards] of run.acked) {
      const { rows } = await db.query<{ card: string }>(
        `select command->>'cardId' as card from game_log where game_id = $1 and command->>'type' = 'playCard'
         union all
         select c->'command'->>'cardId' from replays r, jsonb_array_elements(r.commands) c
         where r.game_id = $1 and c->'command'->>'type' = 'playCard'`,
        [gameId],
      );
      const stored = new Set(rows.map((r) => r.card));
      for (const card of cards) {
        total += 1;
        if (!stored.has(card)) {
          missing += 1;
          lost.push(`${gameId}/${card}`);
        }
      }
    }
    checks.push({
      name: 'nothing acknowledged lost',
      ok: missing === 0 && total > 0,
      detail: `${total} acknowledged plays in ${run.acked.size} games, ${missing} missing${lost.length ? `: ${lost.slice(0, 5).join(', ')}` : ''}`,
    });

    // Nobody in two unfinished games: the database, snapshots during the run, and my-games now.
    const doubles = await doubleSeats(db);
    const overMyGames: string[] = [];
    for (const actor of actors) {
      const games = await actor.myGames();
      if (games.length > 1) overMyGames.push(`${actor.userId}: ${games.join(', ')}`);
    }
    const seatViolations = run.violations.filter((v) => v.startsWith('double seat'));
    checks.push({
      name: 'nobody in two unfinished games once the cluster has healed',
      ok: doubles.length === 0 && overMyGames.length === 0,
      detail: [
        `database now: ${doubles.length === 0 ? 'none' : doubles.join('; ')}`,
        `my-games over 1: ${overMyGames.length === 0 ? 'none' : overMyGames.join('; ')}`,
      ].join(' | '),
    });
    checks.push({
      name: 'nobody in two unfinished games in any snapshot during the faults',
      ok: seatViolations.length === 0,
      detail: seatViolations.length === 0 ? 'none' : seatViolations.join('; '),
    });

    // Every finished game recorded once: seats once each, and games played matching the seats.
    const { rows: finished } = await db.query<{ n: number }>(
      `select count(*)::int as n from games where status = 'finished' and end_reason is not null`,
    );
    const { rows: twice } = await db.query<{ game_id: string }>(
      `select game_id from game_players group by game_id, player_id having count(*) > 1`,
    );
    const { rows: stats } = await db.query<{ id: string; played: number; seats: number }>(
      `select u.id, u.games_played as played,
              (select count(*)::int from game_players gp join games g on g.id = gp.game_id
               where gp.user_id = u.id and (g.end_reason <> 'aborted' or gp.forfeited)) as seats
       from users u`,
    );
    const mismatched = stats.filter((s) => s.played !== s.seats);
    checks.push({
      name: 'finished games recorded once',
      ok: twice.length === 0 && mismatched.length === 0,
      detail: `${finished[0]?.n ?? 0} finished games; seats recorded twice: ${twice.length}; games-played ≠ recorded seats: ${mismatched.length === 0 ? 'none' : JSON.stringify(mismatched.slice(0, 3))}`,
    });

    // Every request answered within 10 s of its node being healthy (a fault overlapping it moves the bar).
    const late: string[] = [];
    const now = Date.now();
    for (const r of run.requests) {
      if (r.dropped) continue;
      const answered = r.answeredAt ?? now;
      const overlapping = faults.filter(
        (f) => t0 + f.startMs <= answered && t0 + f.endMs >= r.sentAt - ANSWER_WITHIN_MS,
      );
      const healthyAt = Math.max(r.sentAt, ...overlapping.map((f) => t0 + f.endMs));
      if (answered - healthyAt > ANSWER_WITHIN_MS) {
        late.push(
          `${r.event} on node ${r.node + 1} at ${r.sentAt - t0} ms: ${r.answeredAt ? `${answered - r.sentAt} ms` : 'no answer'}`,
        );
      }
    }
    checks.push({
      name: 'every request answered within 10 s of its node being healthy',
      ok: late.length === 0,
      detail: `${run.requests.length} requests (${run.requests.filter((r) => r.dropped).length} lost with their node's socket); late: ${late.length === 0 ? 'none' : late.slice(0, 5).join('; ')}`,
    });

    const sigterms = run.violations.filter((v) => v.startsWith('SIGTERM'));
    checks.push({
      name: 'SIGTERM ends a node within 10 s',
      ok: sigterms.length === 0,
      detail: sigterms.length === 0 ? 'every SIGTERM' : sigterms.join('; '),
    });
  }
  return checks;
}
