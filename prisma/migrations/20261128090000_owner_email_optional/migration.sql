-- The original service's agents registered some vehicle owners by phone only: such an owner is imported without an
-- e-mail (docs/importing.md, history). New owners still need one (the API requires it). Dropping NOT NULL keeps
-- every existing value; the trigram index on email skips nulls by itself.
ALTER TABLE "vehicle_owners" ALTER COLUMN "email" DROP NOT NULL;
