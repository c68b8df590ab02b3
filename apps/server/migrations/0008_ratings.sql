ALTER TABLE "game_players" ADD COLUMN "rating_before" double precision;--> statement-breakpoint
ALTER TABLE "game_players" ADD COLUMN "rating_after" double precision;--> statement-breakpoint
ALTER TABLE "game_players" ADD COLUMN "deviation_after" double precision;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "rating" double precision DEFAULT 1500 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "rating_deviation" double precision DEFAULT 350 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "rating_volatility" double precision DEFAULT 0.06 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "rated_games" integer DEFAULT 0 NOT NULL;