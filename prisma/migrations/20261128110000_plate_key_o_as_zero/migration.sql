-- A plate typed with the letter O for the digit zero ("GR 1OO1-24") finds "GR 1001-24": the search key reads O as 0,
-- in the query (the domain's registrationSearchKey) and in the stored plate (this expression), so a plate that really
-- has an O is still found. translate() maps O to 0 and drops spaces and hyphens. Prisma cannot declare an expression
-- index: it lives in the migrations only.
DROP INDEX IF EXISTS "vehicles_plate_key_trgm_idx";
CREATE INDEX "vehicles_plate_key_trgm_idx" ON "vehicles" USING GIN ((translate("registrationNumber", 'O -', '0')) gin_trgm_ops);
