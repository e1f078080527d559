-- Repositories for every domain port: trip services in their own table, driver revocations, transaction
-- reconciliation and anomaly fields, the raw provider-callback inbox, substring search on owners, and an audit log
-- that the database itself keeps append-only. Existing rows are carried over, not dropped.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Drivers: revocation record. Emails are stored lower-cased (the domain normalises them), which makes the unique
-- index case-insensitive. (A CHECK constraint would state it in the database, but Prisma 6.19's WebAssembly schema
-- engine crashes while describing a table that has one, so it is left out.)
ALTER TABLE "drivers" ADD COLUMN "dateRevoked" TIMESTAMPTZ(3),
ADD COLUMN "revocationReason" TEXT,
ADD COLUMN "revokedBy" CHAR(24);
UPDATE "drivers" SET "email" = lower("email") WHERE "email" <> lower("email");
CREATE UNIQUE INDEX "drivers_email_key" ON "drivers"("email");

-- Assembly users: one account per email (stored lower-cased).
CREATE UNIQUE INDEX "assembly_users_email_key" ON "assembly_users"("email");

-- Stations: the interface shows contactNumber as a number.
ALTER TABLE "stations" ALTER COLUMN "contactNumber" TYPE BIGINT
  USING COALESCE(NULLIF(regexp_replace("contactNumber", '\D', '', 'g'), ''), '0')::BIGINT;

-- Transactions: reconciliation state and anomalies kept for review.
ALTER TABLE "transactions" ADD COLUMN "anomalies" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN "needsStatusCheck" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "statusCheckInfo" JSONB,
ADD COLUMN "statusCheckTime" TIMESTAMPTZ(3);
CREATE INDEX "transactions_status_createdAt_id_idx" ON "transactions"("status", "createdAt", "id");

-- Trip services move out of trips.service (JSON in the interface's shape, amounts in cedis) into their own table
-- (domain shape, amounts and prices in pesewas).
CREATE TABLE "trip_services" (
    "id" CHAR(24) NOT NULL,
    "tripId" CHAR(24) NOT NULL,
    "serviceID" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "driver" JSONB NOT NULL,
    "vehicle" JSONB NOT NULL,
    "pricing" JSONB NOT NULL,
    "passengers" INTEGER NOT NULL,
    "amount" INTEGER NOT NULL,
    "ended" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "trip_services_pkey" PRIMARY KEY ("id")
);
INSERT INTO "trip_services" ("id", "tripId", "serviceID", "type", "driver", "vehicle", "pricing", "passengers", "amount", "ended")
SELECT
  "service"->>'_id',
  "id",
  "service"->>'serviceID',
  "service"->>'type',
  ("service"->'driver') - '_id' || jsonb_build_object('id', "service"->'driver'->>'_id'),
  ("service"->'vehicle') - '_id' || jsonb_build_object('id', "service"->'vehicle'->>'_id'),
  jsonb_build_object(
    'id', "service"->'pricing'->>'_id',
    'type', "service"->'pricing'->>'type',
    'pricePerKm', round((("service"->'pricing'->>'pricePerKm')::numeric) * 100),
    'pricePerMinute', round((("service"->'pricing'->>'pricePerMinute')::numeric) * 100)),
  ("service"->>'passengers')::INTEGER,
  round((("service"->>'amount')::numeric) * 100)::INTEGER,
  ("service"->>'ended')::BOOLEAN
FROM "trips";
ALTER TABLE "trips" DROP COLUMN "service";
CREATE UNIQUE INDEX "trip_services_tripId_key" ON "trip_services"("tripId");
ALTER TABLE "trip_services" ADD CONSTRAINT "trip_services_tripId_fkey" FOREIGN KEY ("tripId") REFERENCES "trips"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The provider-callback inbox: raw bodies and headers, stored before anything is applied.
CREATE TABLE "payment_callbacks" (
    "id" BIGSERIAL NOT NULL,
    "transactionId" CHAR(24),
    "receivedAt" TIMESTAMPTZ(3) NOT NULL,
    "headers" JSONB NOT NULL,
    "body" TEXT NOT NULL,
    "outcome" TEXT,
    "processedAt" TIMESTAMPTZ(3),

    CONSTRAINT "payment_callbacks_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "payment_callbacks_transactionId_id_idx" ON "payment_callbacks"("transactionId", "id");
ALTER TABLE "payment_callbacks" ADD CONSTRAINT "payment_callbacks_transactionId_fkey" FOREIGN KEY ("transactionId") REFERENCES "transactions"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Owner search by any part of name, phone or email.
CREATE INDEX "vehicle_owners_name_trgm_idx" ON "vehicle_owners" USING GIN ("name" gin_trgm_ops);
CREATE INDEX "vehicle_owners_phone_trgm_idx" ON "vehicle_owners" USING GIN ("phone" gin_trgm_ops);
CREATE INDEX "vehicle_owners_email_trgm_idx" ON "vehicle_owners" USING GIN ("email" gin_trgm_ops);

-- The audit log is history: the database refuses to change or delete it, whatever the application does.
CREATE FUNCTION "audit_log_is_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log is append-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER "audit_log_append_only"
  BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION "audit_log_is_append_only"();
CREATE TRIGGER "audit_log_no_truncate"
  BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_is_append_only"();
