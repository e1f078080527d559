-- A trip's money is exact decimals of cedis, not whole pesewas, as a transaction's is (20261128110000): the original
-- service stored prices such as 12.345 and charges such as 0.195 (1.95% of 10.00), which an integer of pesewas cannot
-- hold. numeric(15,6), for the same reasons. Existing pesewas convert exactly (2550 is 25.500000). The service's
-- pricing snapshot (JSON) holds its prices per km and per minute in millionths of a cedi, the domain's unit: pesewas
-- times 10000, exact in jsonb's numeric.
ALTER TABLE "trips"
  ALTER COLUMN "estimatedPrice" TYPE NUMERIC(15, 6) USING ("estimatedPrice"::NUMERIC / 100),
  ALTER COLUMN "finalPrice" TYPE NUMERIC(15, 6) USING ("finalPrice"::NUMERIC / 100),
  ALTER COLUMN "cashPrice" TYPE NUMERIC(15, 6) USING ("cashPrice"::NUMERIC / 100),
  ALTER COLUMN "charges" DROP DEFAULT,
  ALTER COLUMN "charges" TYPE NUMERIC(15, 6) USING ("charges"::NUMERIC / 100),
  ALTER COLUMN "charges" SET DEFAULT 0,
  ALTER COLUMN "settledAmount" DROP DEFAULT,
  ALTER COLUMN "settledAmount" TYPE NUMERIC(15, 6) USING ("settledAmount"::NUMERIC / 100),
  ALTER COLUMN "settledAmount" SET DEFAULT 0,
  ALTER COLUMN "discount" DROP DEFAULT,
  ALTER COLUMN "discount" TYPE NUMERIC(15, 6) USING ("discount"::NUMERIC / 100),
  ALTER COLUMN "discount" SET DEFAULT 0,
  ALTER COLUMN "refundAmount" DROP DEFAULT,
  ALTER COLUMN "refundAmount" TYPE NUMERIC(15, 6) USING ("refundAmount"::NUMERIC / 100),
  ALTER COLUMN "refundAmount" SET DEFAULT 0;

ALTER TABLE "trip_services"
  ALTER COLUMN "amount" TYPE NUMERIC(15, 6) USING ("amount"::NUMERIC / 100);

UPDATE "trip_services"
SET "pricing" = "pricing"
  || jsonb_build_object(
    'pricePerKm', ("pricing" ->> 'pricePerKm')::NUMERIC * 10000,
    'pricePerMinute', ("pricing" ->> 'pricePerMinute')::NUMERIC * 10000
  )
WHERE jsonb_typeof("pricing" -> 'pricePerKm') = 'number' AND jsonb_typeof("pricing" -> 'pricePerMinute') = 'number';
