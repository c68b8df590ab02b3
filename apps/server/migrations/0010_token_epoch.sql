CREATE TABLE "token_epoch" (
	"id" integer PRIMARY KEY NOT NULL,
	"epoch" bigint NOT NULL
);
--> statement-breakpoint
-- Raised in the transaction that changes a user's token version or deletes users (written by hand:
-- drizzle-kit does not generate triggers). The row is made by the first raise.
CREATE FUNCTION "raise_token_epoch"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "token_epoch" ("id", "epoch") VALUES (1, 1)
    ON CONFLICT ("id") DO UPDATE SET "epoch" = "token_epoch"."epoch" + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "users_token_version_changed" AFTER UPDATE OF "token_version" ON "users"
  FOR EACH ROW WHEN (OLD."token_version" IS DISTINCT FROM NEW."token_version") EXECUTE FUNCTION "raise_token_epoch"();
--> statement-breakpoint
CREATE TRIGGER "users_deleted" AFTER DELETE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "raise_token_epoch"();
