/**
 * The statements of a game's durable life that the ORM does not build: the group commit's write (with
 * and without its check for entries already stored, and cluster mode's fenced form), and the one
 * statement that records a finished game. Used by GameStore (store.ts).
 */
import { MATCH_HISTORY_GAMES } from '@memeslam/engine';

/**
 * A JSON recordset is planned as 100 rows whatever it holds. Joined with `games` or `users` on that
 * guess, the planner scans the whole table into a hash until the table is many times larger
 * (measured: a plan cached while there were few games scanned 1,200–2,000 of them at every batch,
 * the log's writes a third of a core). So each join also names its rows' keys in an array, which the
 * planner sizes at 10 rows and reads through the table's primary key.
 */

/**
 * A batch's row changes ($1, later ones win; $3 their games' ids) and log entries ($2); `owned` limits
 * both to some games.
 */
const rowUpdate = (owned: string) => `
      update games as g set
        status = coalesce(v.status, g.status),
        lobby = coalesce(v.lobby, g.lobby),
        header = coalesce(v.header, g.header),
        seed_commitment = coalesce(v.seed_commitment, g.seed_commitment),
        started_at = coalesce(v.started_at, g.started_at),
        end_reason = coalesce(v.end_reason, g.end_reason),
        finished_at = coalesce(v.finished_at, g.finished_at)
      from json_to_recordset($1::json) as v(
        id uuid, status text, lobby jsonb, header jsonb, seed_commitment text, started_at timestamptz,
        end_reason text, finished_at timestamptz)
      where g.id = any($3::uuid[]) and g.id = v.id
        and g.status <> 'finished'${owned ? ` and g.id in (${owned})` : ''}`;
const logInsert = (owned: string, again = true) => `
      insert into game_log (game_id, n, at, seq, command)
      select v.game_id, v.n, v.at, v.seq, v.command
      from json_to_recordset($2::json) as v(game_id uuid, n integer, at double precision, seq integer, command jsonb)
      ${owned ? `where v.game_id in (${owned})` : ''}
      ${again ? 'on conflict do nothing' : ''}`;

/**
 * The statements of the hot path are prepared (parsed and planned once per connection): planning
 * the record's CTE alone took 2.7 ms per call to plan (measured on the PGlite release).
 *
 * A batch's first attempt holds no entry already stored (a game's next batch waits for its last one),
 * so its entries go in as they are: `on conflict` inserts each row speculatively, which cost 18% more
 * WAL per row and about as much more of the database's CPU (README, "Server benchmark"). Any later
 * attempt (a retry after a lost answer may find its entries stored) skips what is there.
 */
export const WRITE = {
  name: 'game-log-write',
  text: `with updated as (${rowUpdate('')}) ${logInsert('', false)}`,
};
export const WRITE_AGAIN = {
  name: 'game-log-write-again',
  text: `with updated as (${rowUpdate('')}) ${logInsert('')}`,
};

/**
 * Cluster mode's write: the same changes, made only for games this node still owns. Each
 * game's row is locked and its fencing epoch compared with the writer's ($4; $5 the games' ids); a
 * game taken over since (its epoch raised by another node) gets no row change and no log entry, and
 * its id comes back. The lock orders this write against a takeover's epoch raise: whichever commits
 * first, the new owner reads every entry the old one wrote before it lost the game.
 */
export const FENCED_WRITE = {
  name: 'game-log-write-fenced',
  text: `
    with owned as (
      select g.id from games as g
      join json_to_recordset($4::json) as f(id uuid, epoch integer) on f.id = g.id
      where g.id = any($5::uuid[]) and g.owner_epoch = f.epoch
      for update of g
    ),
    updated as (${rowUpdate('select id from owned')}),
    inserted as (${logInsert('select id from owned')})
    select f.id from json_to_recordset($4::json) as f(id uuid, epoch integer)
    where f.id not in (select id from owned)`,
};

/** $19: the seated people's ids (for the planner; see above). */
export const FINISH = {
  name: 'game-record',
  text: `
    with fin as (
      update games set
        status = 'finished', winner_id = $2::uuid, end_reason = $3, duration_ms = $4, seed = $5,
        seed_commitment = $6, started_at = $7::timestamptz, finished_at = $8::timestamptz
      where id = $1::uuid and status <> 'finished' and ($18::integer is null or owner_epoch = $18::integer)
      returning id
    ),
    dropped as (delete from game_log where game_id in (select id from fin)),
    -- A human whose account was deleted during the game keeps an anonymous seat.
    -- docs/fair-play.md: whether the account was a guest when the game was recorded, and the seat's network key.
    seat as (
      select v.*, (v.is_bot or u.id is not null) as kept, coalesce(u.is_guest, false) as was_guest
      from json_to_recordset($9::json) as v(
        seat integer, player_id text, user_id uuid, username text, is_bot boolean, bot_difficulty text,
        place integer, cards_left integer, cards_played integer, power_ups_used integer, points integer,
        forfeited boolean, won boolean, pace_ms integer, rating_before double precision,
        rating_after double precision, deviation_after double precision, volatility_after double precision,
        address_key text)
      left join users u on u.id = any($19::uuid[]) and u.id = v.user_id
    ),
    seated as (
      insert into game_players (game_id, seat, player_id, user_id, username, is_bot, bot_difficulty, place,
        cards_left, cards_played, power_ups_used, points, forfeited, rating_before, rating_after, deviation_after,
        was_guest, address_key)
      select fin.id, seat.seat, case when kept then player_id else 'deleted-' || seat.seat end,
        case when kept then user_id end, case when kept then username else $10::text end, is_bot,
        bot_difficulty, place, cards_left, cards_played, power_ups_used, points, forfeited,
        case when kept then rating_before end, case when kept then rating_after end,
        case when kept then deviation_after end, was_guest, case when kept then address_key end
      from seat, fin
    ),
    replayed as (insert into replays (game_id, config, commands) select id, $11::jsonb, $12::jsonb from fin)
    update users as u set
      games_played = u.games_played + 1,
      games_won = u.games_won + seat.won::integer,
      total_points = u.total_points + seat.points,
      fastest_game = case
        when seat.won and (u.fastest_game is null or $13::integer < u.fastest_game) then $13::integer
        else u.fastest_game end,
      bot_games_played = u.bot_games_played + $14::integer,
      total_game_seconds = u.total_game_seconds + $13::integer,
      -- "Match me": this game's median time per play joins the person's last ${MATCH_HISTORY_GAMES}.
      play_paces = case when seat.pace_ms is null then u.play_paces else (
        select coalesce(jsonb_agg(recent.value order by recent.n), '[]'::jsonb) from (
          select value, n from jsonb_array_elements(u.play_paces || to_jsonb(seat.pace_ms))
            with ordinality as e(value, n)
          order by n desc limit ${MATCH_HISTORY_GAMES}
        ) as recent) end,
      achievements = u.achievements || coalesce((
        select jsonb_agg(jsonb_build_object('id', a.id, 'unlockedAt', $15::text) order by a.n)
        from json_to_recordset($16::json) as a(id text, stat text, threshold integer, n integer)
        where case a.stat
            when 'gamesPlayed' then u.games_played + 1
            when 'gamesWon' then u.games_won + seat.won::integer
            when 'totalPoints' then u.total_points + seat.points
          end >= a.threshold
          and not u.achievements @> jsonb_build_array(jsonb_build_object('id', a.id))
      ), '[]'::jsonb),
      rating = coalesce(seat.rating_after, u.rating),
      rating_deviation = coalesce(seat.deviation_after, u.rating_deviation),
      rating_volatility = coalesce(seat.volatility_after, u.rating_volatility),
      rated_games = u.rated_games + (seat.rating_after is not null)::integer,
      updated_at = now()
    from seat, fin
    where u.id = any($19::uuid[]) and u.id = seat.user_id
      and not seat.is_bot and ($17::boolean or seat.forfeited)`,
};
