-- Games left in play by a server that stored whole-state snapshots cannot be rebuilt from a command
-- log: they are closed as aborted (no stats, no points) before their snapshots go.
UPDATE "games" SET "status" = 'finished', "end_reason" = 'aborted', "finished_at" = now() WHERE "status" <> 'finished';--> statement-breakpoint
ALTER TABLE "games" DROP COLUMN "snapshot";--> statement-breakpoint
ALTER TABLE "games" DROP COLUMN "snapshot_at";
