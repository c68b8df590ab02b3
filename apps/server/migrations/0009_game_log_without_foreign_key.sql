ALTER TABLE "game_log" DROP CONSTRAINT "game_log_game_id_games_id_fk";
