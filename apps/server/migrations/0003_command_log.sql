CREATE TABLE "game_log" (
	"game_id" uuid NOT NULL,
	"n" integer NOT NULL,
	"at" double precision NOT NULL,
	"seq" integer NOT NULL,
	"command" jsonb,
	CONSTRAINT "game_log_game_id_n_pk" PRIMARY KEY("game_id","n")
);
--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "lobby" jsonb;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "header" jsonb;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "restore_error" text;--> statement-breakpoint
ALTER TABLE "game_log" ADD CONSTRAINT "game_log_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;