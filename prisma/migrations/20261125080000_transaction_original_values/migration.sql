-- A transaction imported from the original service keeps the values the original stored where the importer folded
-- them into the domain's (a `requestType` of `direct` is `mobile_money` here): { field: { original, normalised } }.
-- The API answers the original's value while the field still holds what it was folded to (README, Importing).
ALTER TABLE "transactions" ADD COLUMN "originalValues" JSONB;
