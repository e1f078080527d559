-- A key is claimed before its change is carried out (status NULL until the answer is kept), so a second try that
-- arrives while the first is still running waits for its answer instead of being judged as a change of its own.
ALTER TABLE "idempotency_keys" ALTER COLUMN "status" DROP NOT NULL;
