-- Live-game snapshots are rewritten once a second and never queried inside: store them as plain
-- json, out of line and uncompressed, so that a write costs as little as it can.
ALTER TABLE "games" ALTER COLUMN "snapshot" SET STORAGE EXTERNAL;
