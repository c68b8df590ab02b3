-- Prize amounts move out of the settings JSON into exact decimal columns. Existing rows keep their
-- amounts as they were (unconstrained numeric holds any of them, even one too large to pay out: that
-- tournament's payout then fails alone and is shown to admins).
ALTER TABLE "tournaments" ADD COLUMN "prize_total" numeric;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "prize_amounts" numeric[];--> statement-breakpoint
UPDATE "tournaments" SET
  "prize_total" = coalesce(("settings" #>> '{prizePool,totalAmount}')::numeric, 0),
  "prize_amounts" = ARRAY(
    SELECT (e ->> 'amount')::numeric
    FROM jsonb_array_elements(coalesce("settings" #> '{prizePool,distribution}', '[]'::jsonb)) AS e
    ORDER BY (e ->> 'position')::int
  ),
  "settings" = "settings" #- '{prizePool,totalAmount}' #- '{prizePool,distribution}';--> statement-breakpoint
ALTER TABLE "tournaments" ALTER COLUMN "prize_total" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "tournaments" ALTER COLUMN "prize_amounts" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "payout_error" text;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "payout_failed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "payout_attempts" integer DEFAULT 0 NOT NULL;
